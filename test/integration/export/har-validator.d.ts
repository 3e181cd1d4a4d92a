// har-validator ships no types; the tests use only its whole-document check.
declare module 'har-validator' {
  /** Resolves with the data when it is a valid HAR 1.2 document, rejects with the schema errors otherwise. */
  export function har(data: unknown): Promise<unknown>;
}
