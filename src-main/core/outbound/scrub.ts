// Keeping secrets out of what is stored of an answer: a service may echo the API key it was sent (in
// an error body, a header, escaped, URL-encoded, base64 or hex), and the database and its WAL must
// never hold it in clear.
import { redactBytes, redactHeaders, redactText } from '../redact';
import type { OutboundOutcome } from './http-send';

/** The outcome with every secret replaced by its marker: in the response headers and body (any encoding), or in the error. */
export function scrubOutcome(outcome: OutboundOutcome, secrets: readonly string[]): OutboundOutcome {
  if (!outcome.ok) return { ...outcome, error: redactText(outcome.error, secrets) };
  const { status, headers, body } = outcome.response;
  return { ...outcome, response: { status, headers: redactHeaders(headers, secrets), body: redactBytes(body, secrets).bytes } };
}
