import { useState } from 'react';
import type { DeskError, ExchangeDetail } from '../../../src-main/shared/model';
import { desk } from '../../api';
import { formatDateTime } from '../../components/format';

/**
 * Judges this capture's signature again with the active profile's secrets now (a capture taken before
 * the secret was set, or across a rotation). The row's exchange event reloads the detail.
 */
export function VerifyAgainButton(props: { id: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DeskError | null>(null);
  const run = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    const r = await desk.reverify({ ids: [props.id], query: { direction: 'all' } });
    setBusy(false);
    if (!r.ok) setError(r.error);
  };
  return (
    <p className="verify-again">
      <button type="button" className="btn btn-small" disabled={busy} onClick={() => void run()} data-testid="verify-again">
        {busy ? 'Verifying…' : 'Verify again'}
      </button>{' '}
      <span className="small muted">with the active profile’s secrets now</span>
      {error && (
        <span className="small text-error" data-testid="verify-again-error">
          {' '}
          {error.message}
        </span>
      )}
    </p>
  );
}

/** When and with what the signature was judged again, and what it was first recorded as. */
export function ReverifiedNote(props: { reverified: NonNullable<ExchangeDetail['reverified']> }) {
  const r = props.reverified;
  return (
    <p className="small" data-testid="reverified-note">
      Verified again at {formatDateTime(r.at)} with profile {r.profile}
      {r.fingerprint ? ` (sha256:${r.fingerprint})` : ''}; first recorded as <strong>{r.originalVerdict ?? 'no verdict'}</strong>.
    </p>
  );
}
