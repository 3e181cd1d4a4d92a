import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * A modal over the page: Escape or the backdrop closes it, focus starts inside it (on the element
 * marked data-autofocus, else the first button), so a keyboard user lands where the choice is.
 */
export function Dialog(props: { title: ReactNode; children: ReactNode; actions?: ReactNode; onClose(): void; testId?: string; wide?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  // Once, when it opens: a re-render of the opener must not pull the focus back.
  useEffect(() => {
    const el = ref.current;
    (el?.querySelector<HTMLElement>('[data-autofocus]') ?? el?.querySelector<HTMLElement>('button'))?.focus();
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') onClose.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // Rendered at the end of <body>: wherever the button that opens it sits, nothing around it styles the dialog.
  return createPortal(
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose.current()}>
      <div ref={ref} className={props.wide ? 'dialog dialog-wide' : 'dialog'} role="dialog" aria-modal="true" data-testid={props.testId}>
        <header className="dialog-head">
          <h3>{props.title}</h3>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => onClose.current()} aria-label="Close">
            ✕
          </button>
        </header>
        <div className="dialog-body">{props.children}</div>
        {props.actions && <footer className="dialog-actions">{props.actions}</footer>}
      </div>
    </div>,
    document.body,
  );
}

/** A yes/no question. Cancel has the focus: a stray Enter must not send to production or delete. */
export function ConfirmDialog(props: {
  title: ReactNode;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
  testId?: string;
}) {
  return (
    <Dialog
      title={props.title}
      onClose={props.onCancel}
      testId={props.testId ?? 'confirm-dialog'}
      actions={
        <>
          <button type="button" className="btn" onClick={props.onCancel} data-autofocus data-testid="confirm-cancel">
            Cancel
          </button>
          <button type="button" className={props.danger ? 'btn btn-danger' : 'btn btn-primary'} onClick={props.onConfirm} data-testid="confirm-ok">
            {props.confirmLabel}
          </button>
        </>
      }
    >
      {props.children}
    </Dialog>
  );
}
