import { useState } from 'react';
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
 * profile, just its URLs. `compact` (the status bar, above every screen): the primary profile's line,
 * the others one click away, so that four profiles do not take a quarter of the window.
 */
export function ServedCallbackUrls(props: {
  single: Urls | null | undefined;
  served: readonly ProfileCallbackUrls[] | null | undefined;
  testId: string;
  compact?: boolean;
}) {
  const [all, setAll] = useState(false);
  const served = props.served ?? [];
  if (served.length <= 1) return props.single ? <CallbackUrls urls={props.single} testId={props.testId} /> : null;
  const folded = props.compact === true && !all;
  const others = served.length - 1;
  return (
    <div className="callback-urls-by-profile" data-testid={props.testId}>
      {(folded ? served.slice(0, 1) : served).map((p, i) => (
        <div key={p.profile ?? ''} className="callback-urls-profile">
          <span className="status-label callback-urls-name">{p.profile ?? '(no profile)'}</span>
          <CallbackUrls urls={p} testId={`${props.testId}-${p.profile ?? 'none'}`} />
          {props.compact && i === 0 && (
            <button type="button" className="btn btn-small btn-ghost" aria-expanded={all} onClick={() => setAll(!all)} data-testid={`${props.testId}-more`}>
              {all ? 'Fewer' : `+ ${others} other profile${others === 1 ? '' : 's'}`}
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
