// What is stored of an answer passes the same redaction as the request's row: an upstream or a service
// may echo a stored secret in its headers (names too) or body, in any form, and an error text may quote
// what arrived (an Expect value, a method, an upstream's message).
import { redactBytes, redactHeaders, redactText } from '../redact';
import type { ExchangeCompletion } from './new-exchange';

type Answer = NonNullable<ExchangeCompletion['response']>;

/** An answer with every secret, in any form, replaced by its marker (the same object when none is there). */
export function redactAnswer<T extends Answer>(answer: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return answer;
  const headers = redactHeaders(answer.headers, secrets);
  const body = redactBytes(answer.body, secrets).bytes;
  const same = body === answer.body && headers.every(([n, v], i) => n === answer.headers[i]![0] && v === answer.headers[i]![1]);
  return same ? answer : { ...answer, headers, body };
}

/** A completion with every secret in its answer and its error replaced by its marker. */
export function redactCompletion(completion: ExchangeCompletion, secrets: readonly string[]): ExchangeCompletion {
  if (secrets.length === 0) return completion;
  const response = completion.response === null ? null : redactAnswer(completion.response, secrets);
  const error = completion.error === null ? null : redactText(completion.error, secrets);
  return response === completion.response && error === completion.error ? completion : { ...completion, response, error };
}
