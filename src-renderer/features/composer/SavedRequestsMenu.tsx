import { useCallback, useEffect, useState } from 'react';
import type { DeskError, SavedRequest } from '../../../src-main/shared/model';
import { desk } from '../../api';
import { useDesk } from '../../store';

/**
 * Saved requests of the active profile: load one as the draft, save the draft under a name (the
 * signature is computed when it is sent, so only resign, invalid and none can be saved), delete one.
 */
export function SavedRequestsMenu() {
  const draft = useDesk((s) => s.composerDraft);
  const mode = useDesk((s) => s.composerSignature);
  const origin = useDesk((s) => s.composerOrigin);
  const openSaved = useDesk((s) => s.openComposerSaved);
  const [saved, setSaved] = useState<SavedRequest[]>([]);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<DeskError | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    const r = await desk.listSavedRequests();
    if (r.ok) setSaved(r.value);
  }, []);
  useEffect(() => void refresh(), [refresh]);
  useEffect(() => setName(origin?.kind === 'saved' ? origin.name : ''), [origin]);

  const save = async (): Promise<void> => {
    if (!draft) return;
    const r = await desk.saveRequest({ name: name.trim(), draft, signature: mode });
    setProblem(r.ok ? null : r.error);
    setNote(r.ok ? `Saved "${r.value.name}"` : null);
    if (r.ok) await refresh();
  };
  const remove = async (): Promise<void> => {
    const r = await desk.removeSavedRequest(name.trim());
    setProblem(r.ok ? null : r.error);
    setNote(r.ok ? `Deleted "${name.trim()}"` : null);
    if (r.ok) await refresh();
  };
  const known = saved.some((r) => r.name === name.trim());

  return (
    <span className="saved-requests" data-testid="saved-requests">
      <select
        className="input"
        value=""
        onChange={(e) => {
          const chosen = saved.find((r) => r.name === e.target.value);
          if (chosen) void openSaved(chosen);
        }}
        onFocus={() => void refresh()}
        aria-label="Open a saved request"
        data-testid="saved-open"
      >
        <option value="">Saved…</option>
        {saved.map((r) => (
          <option key={r.name} value={r.name}>
            {r.name}
          </option>
        ))}
      </select>
      {draft && (
        <>
          <input
            className="input"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Name to save as"
            aria-label="Name to save the request as"
            data-testid="saved-name"
          />
          <button type="button" className="btn btn-small" disabled={name.trim() === ''} onClick={() => void save()} data-testid="saved-save">
            Save
          </button>
          {known && (
            <button type="button" className="btn btn-small btn-ghost" onClick={() => void remove()} data-testid="saved-delete">
              Delete
            </button>
          )}
        </>
      )}
      {note && (
        <span className="muted" role="status" data-testid="saved-note">
          {note}
        </span>
      )}
      {problem && (
        <span className="error-text" role="alert" data-testid="saved-error">
          {problem.message}
        </span>
      )}
    </span>
  );
}
