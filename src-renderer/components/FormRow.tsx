import type { ReactNode } from 'react';

/**
 * A labelled row of a settings form: the label on the left pointing at the control (by its id), the
 * control on the right with a hint under it.
 */
export function FormRow(props: { label: string; controlId: string; hint: ReactNode; hintTestId?: string; children: ReactNode }) {
  return (
    <div className="form-row">
      <label className="form-label" htmlFor={props.controlId}>
        {props.label}
      </label>
      <div className="form-control">
        {props.children}
        <div className="form-hint" data-testid={props.hintTestId}>
          {props.hint}
        </div>
      </div>
    </div>
  );
}
