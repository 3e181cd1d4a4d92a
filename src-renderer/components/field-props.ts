// What the labelled fields of a form take, whatever their layout.

/** The words of the label, the value shown, where a change goes, and the test id the tests find it by. */
export interface FieldProps<T extends string> {
  label: string;
  value: T;
  // NoInfer: the value alone says which strings T is; a wider setter passed here must not widen it.
  onChange(value: NoInfer<T>): void;
  testId: string;
}

/** One choice of a select: the value it stands for and the words the user reads. */
export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

/** A select's field: the value it reports is always one of the options'. */
export interface SelectFieldProps<T extends string> extends FieldProps<T> {
  options: ReadonlyArray<SelectOption<T>>;
}
