import { useState } from 'react';
import type { DeskError, ExchangeQuery } from '../../../src-main/shared/model';
import { desk } from '../../api';
import { downloadText } from './download';

/**
 * Downloads a HAR 1.2 file of what the query selects (a filter, one deposit's timeline, one report's
 * steps). The desk writes it with secrets replaced by fingerprints; the page only saves it.
 */
export function ExportHarButton(props: { query: ExchangeQuery & { reportId?: number }; fileName: string; label?: string; testId?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DeskError | null>(null);
  const run = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    const r = await desk.exportHar(props.query);
    setBusy(false);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    downloadText(props.fileName.endsWith('.har') ? props.fileName : `${props.fileName}.har`, r.value, 'application/json');
  };
  return (
    <span className="inline-action">
      <button
        type="button"
        className="btn btn-small"
        disabled={busy}
        onClick={() => void run()}
        data-testid={props.testId ?? 'export-har'}
        title="HAR 1.2: opens in browser DevTools and HTTP Toolkit; secrets are replaced by fingerprints"
      >
        {busy ? 'Exporting…' : (props.label ?? 'Export HAR')}
      </button>
      {error && (
        <span className="text-error small" role="alert" data-testid="export-har-error">
          {error.message}
        </span>
      )}
    </span>
  );
}
