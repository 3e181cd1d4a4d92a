import type { ProfileCallbackUrls, CallbackUrls as Urls } from '../../src-main/shared/model';
import { CopyButton } from './CopyButton';

/** The exact callback URLs to configure in the platform, each with a copy button. */
export function CallbackUrls(props: { urls: Urls; testId: string }) {
  const { urls } = props;
  return (
    <div className="callback-urls" data-testid={props.testId}>
      {(['pay', 'results'] as const).map((kind) => (
        <span key={kind} className="callback-url">
          <code data-testid={`${props.testId}-${kind}`}>{urls[kind]}</code>
          <CopyButton text={urls[kind]} label={`Copy ${kind} URL`} testId={`${props.testId}-copy-${kind}`} />
        </span>
      ))}
    </div>
  );
}

/**
 * The callback URLs of every profile one proxy serves (one prefix each), named by profile; with one
 * profile, just its URLs.
 */
export function ServedCallbackUrls(props: { single: Urls | null | undefined; served: readonly ProfileCallbackUrls[] | null | undefined; testId: string }) {
  const served = props.served ?? [];
  if (served.length <= 1) return props.single ? <CallbackUrls urls={props.single} testId={props.testId} /> : null;
  return (
    <div className="callback-urls-by-profile" data-testid={props.testId}>
      {served.map((p) => (
        <div key={p.profile ?? ''} className="callback-urls-profile">
          <span className="status-label">{p.profile ?? '(no profile)'}</span>
          <CallbackUrls urls={p} testId={`${props.testId}-${p.profile ?? 'none'}`} />
        </div>
      ))}
    </div>
  );
}
