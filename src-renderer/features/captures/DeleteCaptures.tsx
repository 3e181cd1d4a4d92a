import { useState } from 'react';
import { ConfirmDialog } from '../../components/Dialog';
import { filtersActive, useDesk } from '../../store';

type What = 'selected' | 'filter';

/** Deletes the selected capture, or every row the filters match, after a confirmation that says how many. */
export function DeleteCaptures() {
  const selectedId = useDesk((s) => s.selectedId);
  const filtered = useDesk((s) => filtersActive(s.filters));
  const empty = useDesk((s) => s.captures.length === 0);
  const countForDelete = useDesk((s) => s.countForDelete);
  const deleteCaptures = useDesk((s) => s.deleteCaptures);
  const [asking, setAsking] = useState<{ what: What; count: number; lastId: number | null } | null>(null);
  const [busy, setBusy] = useState(false);

  const ask = async (what: What): Promise<void> => {
    setBusy(true);
    const counted = await countForDelete(what);
    setBusy(false);
    if (counted !== null) setAsking({ what, ...counted });
  };

  const rows = (n: number): string => `${n} ${n === 1 ? 'capture' : 'captures'}`;
  return (
    <div className="delete-captures" data-testid="delete-captures">
      <button type="button" className="btn btn-small" disabled={busy || selectedId === null} onClick={() => void ask('selected')} data-testid="delete-selected">
        Delete selected
      </button>
      <button type="button" className="btn btn-small" disabled={busy || empty} onClick={() => void ask('filter')} data-testid="delete-filtered">
        {filtered ? 'Delete all matching the filters' : 'Delete all'}
      </button>
      {asking && (
        <ConfirmDialog
          title={asking.count === 0 ? 'Nothing to delete' : `Delete ${rows(asking.count)}?`}
          confirmLabel={`Delete ${rows(asking.count)}`}
          danger
          testId="delete-captures-confirm"
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            const { what, lastId } = asking;
            setAsking(null);
            if (asking.count > 0) void deleteCaptures(what, lastId);
          }}
        >
          <p data-testid="delete-captures-count">
            {asking.what === 'selected'
              ? `The selected capture (exchange ${selectedId}) is deleted from the log.`
              : `${rows(asking.count)} ${filtered ? 'matching the filters (not only the rows loaded)' : 'in the list (every row, not only those loaded)'} are deleted from the log.`}{' '}
            Replays of a deleted capture keep their own rows. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
