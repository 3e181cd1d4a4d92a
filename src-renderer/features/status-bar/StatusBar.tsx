import { useState } from 'react';
import { Badge } from '../../components/Badge';
import { ServedCallbackUrls } from '../../components/CallbackUrls';
import { ErrorBanner } from '../../components/ErrorBanner';
import { useDesk } from '../../store';
import { useActiveProfile } from '../profiles/use-active-profile';
import { ProxySettings } from './ProxySettings';

/** The proxy's address and state, where callbacks go, the active profile and the counts; start, stop, reconfigure. */
export function StatusBar() {
  const status = useDesk((s) => s.status);
  const error = useDesk((s) => s.statusError);
  const busy = useDesk((s) => s.proxyBusy);
  const startProxy = useDesk((s) => s.startProxy);
  const stopProxy = useDesk((s) => s.stopProxy);
  const clearError = useDesk((s) => s.clearStatusError);
  const refresh = useDesk((s) => s.refreshStatus);
  const [editing, setEditing] = useState(false);
  const { profile } = useActiveProfile();

  const proxy = status?.proxy ?? null;
  const running = proxy?.running === true;

  return (
    <div className="status-area">
      <div className="status-bar" data-testid="status-bar">
        <div className="status-item" data-testid="proxy-state" data-running={running}>
          <span className={`dot ${running ? 'dot-on' : 'dot-off'}`} aria-hidden="true" />
          <span className="status-label">Proxy</span>
          {proxy === null ? (
            <span className="muted">unknown</span>
          ) : running ? (
            <code data-testid="proxy-url" title={proxy.url ?? undefined}>
              {proxy.url}
            </code>
          ) : (
            <span className="muted">stopped</span>
          )}
        </div>
        <div className="status-item" data-testid="proxy-mode">
          <span className="status-label">Mode</span>
          {proxy === null ? (
            <span className="muted">—</span>
          ) : proxy.mode === 'forward' ? (
            <span>
              forward →{' '}
              <code title={proxy.upstream ?? undefined} data-testid="proxy-upstream">
                {proxy.upstream}
              </code>
            </span>
          ) : (
            <span title="No upstream: the desk's sandbox operator answers the callbacks">sandbox operator</span>
          )}
        </div>
        <div className="status-item" data-testid="public-url">
          <span className="status-label">Public URL</span>
          {proxy?.publicUrl ? (
            <code title={proxy.publicUrl}>{proxy.publicUrl}</code>
          ) : (
            <span className="muted" title="No public URL set: the platform must reach the proxy's own address (a tunnel or a public host gives it one)">
              none
            </span>
          )}
          {proxy?.tls && (
            <span title={`${proxy.tls.certFile}\nSHA-256 ${proxy.tls.fingerprint256}\nvalid until ${proxy.tls.validTo}`} data-testid="proxy-tls">
              <Badge tone="green">HTTPS{proxy.tls.source === 'self-signed' ? ' (self-signed)' : ''}</Badge>
            </span>
          )}
        </div>
        <div className="status-item">
          <span className="status-label">Profile</span>
          <span data-testid="active-profile">{status ? (status.activeProfile ?? <span className="muted">none</span>) : '—'}</span>
          {profile?.production && profile.name === status?.activeProfile && (
            <Badge tone="red" title="The active profile is marked production: sends, replays and checks ask before they go out" testId="production-mark">
              PRODUCTION
            </Badge>
          )}
        </div>
        <div className="status-item" data-testid="counts" data-log={status?.exchangeLog ? 'team' : 'local'}>
          <span className="status-label">Exchanges</span>
          {status ? (
            <span>
              {status.counts.inbound.toLocaleString()} captured · {status.counts.outbound.toLocaleString()} sent
            </span>
          ) : (
            '—'
          )}
          {status?.exchangeLog && (
            <Badge tone="blue" title={`Every desk and proxy on this database shares this log: ${status.exchangeLog}`} testId="team-log">
              team log
            </Badge>
          )}
        </div>
        <span className="spacer" />
        {running ? (
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => void stopProxy()} data-testid="proxy-stop">
            Stop proxy
          </button>
        ) : (
          <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={() => void startProxy({})} data-testid="proxy-start">
            Start proxy
          </button>
        )}
        <button type="button" className="btn btn-small btn-ghost" onClick={() => setEditing(!editing)} aria-expanded={editing} data-testid="proxy-edit">
          Port & upstream…
        </button>
      </div>
      {proxy?.callbackUrls && (
        <div className="status-callbacks">
          <span className="status-label" title="Configure these in the platform as the operator's callback URLs">
            Callbacks
          </span>
          <ServedCallbackUrls single={proxy.callbackUrls} served={proxy.profileCallbackUrls} testId="status-callback-urls" compact />
        </div>
      )}
      {proxy?.warning && (
        <div className="status-warning" role="status">
          ⚠ {proxy.warning}
        </div>
      )}
      {status?.exchangeLogProblem && (
        <div className="status-warning" role="status" data-testid="exchange-log-problem">
          ⚠ {status.exchangeLogProblem}
        </div>
      )}
      {status?.secretsKeyProblem && (
        <div className="status-warning" role="status" data-testid="secrets-key-problem">
          ⚠ {status.secretsKeyProblem}
        </div>
      )}
      {editing && <ProxySettings proxy={proxy} onDone={() => setEditing(false)} />}
      <ErrorBanner error={error} context="Proxy" onDismiss={clearError} onRetry={() => void refresh()} testId="status-error" />
    </div>
  );
}
