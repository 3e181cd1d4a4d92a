import { useMemo } from 'react';
import { ServedCallbackUrls } from '../../components/CallbackUrls';
import { CopyButton } from '../../components/CopyButton';
import { EmptyState } from '../../components/EmptyState';
import { useDesk } from '../../store';
import { freshTestDepositId, signedCurlCommand, TEST_SECRET_VARIABLE } from './test-callback';
import { useActiveProfile } from '../profiles/use-active-profile';
import { DEFAULT_CALLBACK_PREFIX } from '../../components/callback-prefix';
import { DEFAULT_CURRENCY } from '../../../src-main/shared/money';

/** The empty capture list: how to get the first callback in, with the proxy's real address filled in. */
export function EmptyCaptures() {
  const statusKnown = useDesk((s) => s.status !== null);
  const proxy = useDesk((s) => s.status?.proxy ?? null);
  const activeProfile = useDesk((s) => s.status?.activeProfile ?? null);
  const startProxy = useDesk((s) => s.startProxy);
  const busy = useDesk((s) => s.proxyBusy);
  const setView = useDesk((s) => s.setView);
  const depositId = useMemo(() => freshTestDepositId(), []);

  const running = proxy?.running === true && proxy.url !== null;
  const url = running ? proxy.url! : `http://127.0.0.1:${proxy?.port ?? 'PORT'}`;
  const { profile } = useActiveProfile();
  const command = signedCurlCommand(url, depositId, profile?.callbackPrefix ?? DEFAULT_CALLBACK_PREFIX, profile?.currency ?? DEFAULT_CURRENCY);

  // Until the desk's status arrives, the proxy's address and the active profile are unknown: a command with
  // a placeholder port, or "the proxy is not running", would be wrong advice for that moment.
  if (!statusKnown) {
    return (
      <EmptyState title="No callbacks captured yet" testId="captures-empty">
        <p data-testid="empty-status-pending">Reading the proxy's address…</p>
      </EmptyState>
    );
  }

  return (
    <EmptyState title="No callbacks captured yet" testId="captures-empty">
      {running ? (
        <>
          <p>
            The capture proxy listens on <code data-testid="empty-proxy-url">{url}</code>. Configure these callback URLs in the platform
            {proxy.publicUrl
              ? ' (the public URL the platform reaches this desk at)'
              : " (the proxy's own address: the platform reaches it only through a tunnel or a public host; set its public URL in the proxy panel or the profile)"}
            , or send yourself a signed test callback:
          </p>
          <ServedCallbackUrls single={proxy.callbackUrls} served={proxy.profileCallbackUrls} testId="empty-callback-urls" />
        </>
      ) : (
        <p>
          The capture proxy is not running.{' '}
          <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={() => void startProxy({})}>
            Start the proxy
          </button>{' '}
          then point the platform's callback URL at it, or send yourself a signed test callback.
        </p>
      )}
      <ol className="steps">
        <li>
          Put the signing secret you share with the platform in an environment variable: <code>export {TEST_SECRET_VARIABLE}='…'</code>
          {activeProfile === null && (
            <>
              {' '}
              and give the same secret to the desk so it can verify: in the{' '}
              <button type="button" className="link" onClick={() => setView('profiles')} data-testid="empty-go-profiles">
                Profiles
              </button>{' '}
              screen, create a profile with it and make it active.
            </>
          )}
        </li>
        <li>
          Run this in the same shell:
          <div className="command-box">
            <pre className="code" data-testid="empty-curl">
              {command}
            </pre>
            <CopyButton text={command} label="Copy command" testId="copy-empty-curl" />
          </div>
        </li>
        <li>The callback appears here within a second, with its signature verdict. Click it to see why it passed or failed.</li>
      </ol>
    </EmptyState>
  );
}
