// How large an API call's body may be, per method. Most calls carry a few ids, a filter or a profile's
// fields: a small bound keeps a hostile or broken page from making the desk buffer and parse megabytes
// for them. The calls that carry a request body to sign, send or save, or a file to import (a pasted
// HAR, a saved-requests file), keep room for one.
import type { DeskMethod } from '../../shared/desk-api';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The bound of a call that carries a request body or an imported file: room for a pasted HAR. */
export const MAX_API_BODY_BYTES = 64 * MiB;
/** The bound of every other call. */
export const MAX_API_CALL_BYTES = 1 * MiB;

/** The methods whose arguments hold a request's body or a file's text (desk-args.ts: bodyBase64, fileText, text). */
export const BODY_CARRYING_METHODS: ReadonlySet<DeskMethod> = new Set<DeskMethod>([
  'signBody',
  'verifySignature',
  'previewSignature',
  'inspectDraft',
  'send',
  'curlForDraft',
  'saveRequest',
  'importSavedRequests',
  'importHar',
]);

export function bodyLimitOf(method: DeskMethod): number {
  return BODY_CARRYING_METHODS.has(method) ? MAX_API_BODY_BYTES : MAX_API_CALL_BYTES;
}

/** The refusal's words: the bound in MiB, and for a small call, that only sends and imports may be larger. */
export function tooLargeMessage(method: DeskMethod): string {
  const limit = bodyLimitOf(method);
  const mib = `${limit / MiB} MiB`;
  return BODY_CARRYING_METHODS.has(method)
    ? `The request body of ${method} is larger than ${mib}: nothing was done.`
    : `The request body of ${method} is larger than ${mib} (only calls that carry a request body or an import may be larger): nothing was done.`;
}
