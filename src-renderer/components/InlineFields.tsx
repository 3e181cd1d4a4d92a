import type { FieldProps, SelectFieldProps } from './field-props';
import { SelectOptions } from './SelectOptions';

// Controls inside a sentence-like line of a form ("Since [   ]"): the label wraps the control, so it
// needs no id to point at it.

/** A text input after its label, on the same line. */
export function InlineTextField(props: FieldProps<string> & { placeholder?: string; inputMode?: 'numeric' | 'decimal' | 'text'; size?: number }) {
  return (
    <label>
      {props.label}{' '}
      <input
        className="input input-inline"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        placeholder={props.placeholder}
        inputMode={props.inputMode}
        size={props.size}
        data-testid={props.testId}
      />
    </label>
  );
}

/** A select after its label, on the same line. */
export function InlineSelectField<T extends string>(props: SelectFieldProps<T>) {
  return (
    <label>
      {props.label}{' '}
      <select className="input input-inline" value={props.value} onChange={(e) => props.onChange(e.target.value as T)} data-testid={props.testId}>
        <SelectOptions options={props.options} />
      </select>
    </label>
  );
}
