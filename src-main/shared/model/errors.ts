// The desk's errors and the Result every DeskApi call answers with.
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.

export type DeskErrorCode =
  | 'bad-input'
  | 'not-found'
  | 'no-secret'
  | 'no-target'
  | 'no-profile'
  | 'needs-confirmation'
  | 'proxy-error'
  | 'io-error'
  /** The caller is not the app's own page (an IPC sender or web request the shell refuses). */
  | 'forbidden'
  | 'internal';

/** Errors cross IPC and HTTP as data: a stable code and a message a person can read. */
export interface DeskError {
  code: DeskErrorCode;
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: DeskError };
