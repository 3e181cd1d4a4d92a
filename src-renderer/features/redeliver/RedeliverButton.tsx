import { useState } from 'react';
import { RedeliverDialog } from './RedeliverDialog';

/** Opens the redelivery dialog from the capture list. */
export function RedeliverButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => setOpen(true)} data-testid="open-redeliver">
        Redeliver…
      </button>
      {open && <RedeliverDialog onClose={() => setOpen(false)} />}
    </>
  );
}
