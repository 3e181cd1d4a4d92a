import type { FieldProps, SelectFieldProps } from './field-props';
import { FormRow } from './FormRow';
import { SelectOptions } from './SelectOptions';

// The testId is the control's id as well: the row's label points at it, and the tests find it by either.

/** A one-line text input in a labelled form row. */
export function TextField(props: FieldProps<string> & { hint: string; placeholder?: string }) {
  return (
    <FormRow label={props.label} controlId={props.testId} hint={props.hint}>
      <input
        id={props.testId}
        className="input"
        value={props.value}
        placeholder={props.placeholder}
        spellCheck={false}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      />
    </FormRow>
  );
}

/** A select in a labelled form row. */
export function SelectField<T extends string>(props: SelectFieldProps<T> & { hint: string }) {
  return (
    <FormRow label={props.label} controlId={props.testId} hint={props.hint}>
      <select id={props.testId} className="input" value={props.value} onChange={(e) => props.onChange(e.target.value as T)} data-testid={props.testId}>
        <SelectOptions options={props.options} />
      </select>
    </FormRow>
  );
}
