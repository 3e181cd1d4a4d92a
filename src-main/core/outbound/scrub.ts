// Keeping secrets out of what is stored of an answer: a service may echo the API key it was sent (in
// an error body, a header), and the database and its WAL must never hold it in clear.
import { redactedMarker, redactHeaders } from '../redact';
import type { OutboundOutcome } from './http-send';

function scrubBytes(bytes: Uint8Array, secret: string): Uint8Array {
  const needle = Buffer.from(secret, 'utf8');
  let data = Buffer.from(bytes);
  let at = data.indexOf(needle);
  if (at < 0) return bytes;
  const marker = Buffer.from(redactedMarker(secret), 'utf8');
  while (at >= 0) {
    data = Buffer.concat([data.subarray(0, at), marker, data.subarray(at + needle.length)]);
    at = data.indexOf(needle, at + marker.length);
  }
  return new Uint8Array(data);
}

const scrubText = (text: string, secrets: readonly string[]): string => secrets.reduce((t, s) => t.split(s).join(redactedMarker(s)), text);

/** The outcome with every secret replaced by its marker: in the response headers and body, or in the error. */
export function scrubOutcome(outcome: OutboundOutcome, secrets: readonly string[]): OutboundOutcome {
  if (!outcome.ok) return { ...outcome, error: scrubText(outcome.error, secrets) };
  const { status, headers } = outcome.response;
  let body = outcome.response.body;
  for (const s of secrets) body = scrubBytes(body, s);
  return { ...outcome, response: { status, headers: redactHeaders(headers, secrets), body } };
}
