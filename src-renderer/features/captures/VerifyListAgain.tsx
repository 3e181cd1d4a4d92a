import { useState } from 'react';
import type { DeskError, ReverifyReport } from '../../../src-main/shared/model';
import { desk } from '../../api';
import { useDesk } from '../../store';
import { toQuery } from '../../store/captures-slice';

/**
 * Judges every capture the current filters select (not only the rows loaded) again with the active
 * profile's secrets now. Each changed row comes back as an exchange event, so the list follows.
 */
export function VerifyListAgain() {
  const filters = useDesk((s) => s.filters);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ReverifyReport | null>(null);
  const [error, setError] = useState<DeskError | null>(null);
  const run = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    setReport(null);
    const r = await desk.reverify({ query: toQuery(filters) });
    setBusy(false);
    if (r.ok) setReport(r.value);
    else setError(r.error);
  };
  return (
    <div className="verify-list-again">
      <button
        type="button"
        className="btn btn-small"
        disabled={busy}
        onClick={() => void run()}
        title="Judge the signatures of every capture these filters select with the active profile's secrets now"
        data-testid="verify-list-again"
      >
        {busy ? 'Verifying…' : 'Verify this list again'}
      </button>
      {report && (
        <span className="small" data-testid="verify-list-report">
          {' '}
          {report.judged} verified again, {report.changed} changed (profile {report.profile}
          {report.fingerprint ? `, sha256:${report.fingerprint}` : ''})
        </span>
      )}
      {error && (
        <span className="small text-error" data-testid="verify-list-error">
          {' '}
          {error.message}
        </span>
      )}
    </div>
  );
}
