import type { SelectOption } from './field-props';

/** The <option> elements of a select, in the order given. */
export function SelectOptions<T extends string>(props: { options: ReadonlyArray<SelectOption<T>> }) {
  return (
    <>
      {props.options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </>
  );
}
