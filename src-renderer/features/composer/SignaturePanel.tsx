import type { DeskError, SignatureMode } from '../../../src-main/shared/model';

const MODES: Array<{ mode: SignatureMode; label: string; what: string }> = [
  { mode: 'resign', label: 'Re-sign', what: "HMAC-SHA256 of the exact body bytes above with the profile's signing secret: what the platform sends." },
  { mode: 'keep', label: 'Keep', what: 'Send the x-server-authorization value from the headers as it is (the original signature, or one you typed).' },
  { mode: 'none', label: 'None', what: 'No x-server-authorization header at all: the operator must refuse it.' },
  { mode: 'invalid', label: 'Invalid', what: 'A well-formed signature that cannot match: the operator must refuse it.' },
  { mode: 'custom', label: 'Custom secret', what: 'Sign with a secret typed here for this send only: it is never stored, and never shown again.' },
];

export interface SignaturePreview {
  pending: boolean;
  /** False until the desk has answered once. */
  known: boolean;
  /** The header value the send would carry; null: no header. */
  value: string | null;
  error: DeskError | null;
}

/**
 * The signature mode as a visible choice, and the x-server-authorization value that mode yields for
 * the bytes on screen, computed by the desk before anything is sent.
 */
export function SignaturePanel(props: {
  mode: SignatureMode;
  onMode(mode: SignatureMode): void;
  onCustomSecret(secret: string): void;
  preview: SignaturePreview;
  /** The user set the signature header by hand: the mode does not decide it. */
  byHand?: boolean;
}) {
  const current = MODES.find((m) => m.mode === props.mode) ?? MODES[0]!;
  const { preview } = props;
  return (
    <div className="signature-panel" data-testid="signature-panel" data-mode={props.mode}>
      <div className="segmented" role="radiogroup" aria-label="Signature mode">
        {MODES.map((m) => (
          <button
            key={m.mode}
            type="button"
            role="radio"
            aria-checked={m.mode === props.mode}
            className={m.mode === props.mode ? 'segment segment-active' : 'segment'}
            onClick={() => props.onMode(m.mode)}
            data-testid={`signature-${m.mode}`}
          >
            {m.label}
          </button>
        ))}
      </div>
      <p className="form-hint">{current.what}</p>
      {props.mode === 'custom' && (
        <label className="stack-label">
          Custom secret
          <input
            className="input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="the secret to sign this send with"
            onInput={(e) => props.onCustomSecret(e.currentTarget.value)}
            data-testid="custom-secret"
          />
        </label>
      )}
      {props.byHand && (
        <p className="form-hint text-warning" data-testid="signature-by-hand">
          You edited the x-server-authorization header: it is sent as you set it, and the signature mode does not apply. Reset the draft to let the mode sign
          again.
        </p>
      )}
      <div className="signature-preview" data-testid="signature-preview" data-pending={preview.pending}>
        <span className="label">Header that will be sent</span>
        {!preview.known ? (
          <span className="muted">computing…</span>
        ) : preview.error ? (
          <span className="text-error small" data-testid="signature-preview-error">
            {preview.error.message}
          </span>
        ) : preview.value === null ? (
          <span className="muted">no x-server-authorization header</span>
        ) : (
          <code className="signature-value" data-testid="signature-preview-value">
            x-server-authorization: {preview.value}
          </code>
        )}
      </div>
    </div>
  );
}
