import { useRef, useState } from 'react';
import type { DeskError } from '../../../src-main/shared/model';
import { desk } from '../../api';
import { useDesk } from '../../store';

/**
 * Reads a HAR file (DevTools, HTTP Toolkit, mitmproxy, an operator's logs) and hands its text to the
 * desk, which imports every entry as a capture or, when one entry is malformed, none and says which.
 */
export function ImportHarButton() {
  const input = useRef<HTMLInputElement>(null);
  const reload = useDesk((s) => s.reloadCaptures);
  const refreshStatus = useDesk((s) => s.refreshStatus);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<DeskError | null>(null);

  const pick = async (file: File): Promise<void> => {
    setBusy(true);
    setDone(null);
    setError(null);
    const text = await file.text();
    const r = await desk.importHar(text, { origin: file.name });
    setBusy(false);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    setDone(`Imported ${r.value.imported} exchange${r.value.imported === 1 ? '' : 's'} from ${file.name}.`);
    void reload();
    void refreshStatus();
  };

  return (
    <span className="inline-action">
      <input
        ref={input}
        type="file"
        accept=".har,application/json"
        hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void pick(file);
        }}
        data-testid="import-har-input"
      />
      <button
        type="button"
        className="btn btn-small"
        disabled={busy}
        onClick={() => input.current?.click()}
        data-testid="import-har"
        title="Each entry becomes a capture, verified with the active profile's secret"
      >
        {busy ? 'Importing…' : 'Import HAR…'}
      </button>
      {done && (
        <span className="small ok-text" role="status" data-testid="import-har-done">
          {done}
        </span>
      )}
      {error && (
        <span className="text-error small" role="alert" data-testid="import-har-error">
          Nothing imported: {error.message}
        </span>
      )}
    </span>
  );
}
