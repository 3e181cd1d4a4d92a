import type { DeskError } from '../../src-main/shared/model';

/** An error from the desk, in words, with its code for a bug report. Never an empty catch. */
export function ErrorBanner(props: { error: DeskError | null; context?: string; onDismiss?: () => void; onRetry?: () => void; testId?: string }) {
  if (!props.error) return null;
  return (
    <div className="error-banner" role="alert" data-testid={props.testId ?? 'error-banner'} data-code={props.error.code}>
      <div className="error-banner-text">
        {props.context && <strong>{props.context}: </strong>}
        {props.error.message}
        <span className="error-code"> ({props.error.code})</span>
      </div>
      <div className="error-banner-actions">
        {props.onRetry && (
          <button type="button" className="btn btn-small" onClick={props.onRetry}>
            Retry
          </button>
        )}
        {props.onDismiss && (
          <button type="button" className="btn btn-small btn-ghost" onClick={props.onDismiss} aria-label="Dismiss">
            ✕
          </button>
        )}
      </div>
    </div>
  );
}
