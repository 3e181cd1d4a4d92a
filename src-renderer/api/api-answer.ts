// How the page reads the web API's answer to a call: a text value comes as the body itself, marked by
// TEXT_VALUE_HEADER (the desk's api-routes.ts sendResult), anything else as a Result's JSON. Free of the
// DOM's own types, so that a test reads the desk's real answers with it under Node.
import type { Result } from '../../src-main/shared/model';
import { TEXT_VALUE_HEADER } from '../../src-main/shared/web-wire';

function isResult(value: unknown): value is Result<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { ok?: unknown; error?: unknown };
  return v.ok === true || (v.ok === false && typeof v.error === 'object' && v.error !== null);
}

/** The Result `response` carries for `method`; one that carries none is a failure that says so. */
export async function readAnswer(method: string, response: Response): Promise<Result<unknown>> {
  if (response.status === 200 && response.headers.get(TEXT_VALUE_HEADER) === 'text') {
    try {
      // Decoded without dropping a leading U+FEFF, which response.text() would: the value as the desk sent it.
      return { ok: true, value: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer()) };
    } catch (err) {
      return { ok: false, error: { code: 'io-error', message: `The desk's answer to ${method} was cut short (${(err as Error).message}).` } };
    }
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // fall through: reported below with the status
  }
  if (isResult(body)) return body;
  return { ok: false, error: { code: 'internal', message: `The desk answered ${method} with HTTP ${response.status} and no result.` } };
}
