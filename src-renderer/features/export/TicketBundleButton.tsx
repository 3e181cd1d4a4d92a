import { useState } from 'react';
import type { DeskError } from '../../../src-main/shared/model';
import { desk } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { downloadText, fileNameOf } from './download';

/** One deposit's story as Markdown, ready to paste into a ticket (secrets redacted by the desk). */
export function TicketBundleButton(props: { depositId: string }) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<DeskError | null>(null);
  const open = async (): Promise<void> => {
    setError(null);
    const r = await desk.ticketBundle(props.depositId);
    if (r.ok) setText(r.value);
    else setError(r.error);
  };
  return (
    <span className="inline-action">
      <button type="button" className="btn btn-small" onClick={() => void open()} data-testid="ticket-bundle">
        Ticket bundle
      </button>
      {error && (
        <span className="text-error small" role="alert">
          {error.message}
        </span>
      )}
      {text !== null && (
        <Dialog
          wide
          title={
            <>
              Ticket bundle for <code>{props.depositId}</code>
            </>
          }
          onClose={() => setText(null)}
          testId="ticket-dialog"
          actions={
            <>
              <button
                type="button"
                className="btn btn-small"
                onClick={() => downloadText(`${fileNameOf('ticket', props.depositId)}.md`, text, 'text/markdown')}
              >
                Download .md
              </button>
              <CopyButton text={text} label="Copy Markdown" testId="ticket-copy" />
            </>
          }
        >
          <p className="muted small">Markdown for a ticket: the timeline, verdicts, diagnoses and findings. Secrets are redacted and signatures shortened.</p>
          <pre className="code ticket-text" data-testid="ticket-text">
            {text}
          </pre>
        </Dialog>
      )}
    </span>
  );
}
