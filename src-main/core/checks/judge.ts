// How an answer is judged against what the spec expects. A check can only pass on an answer that
// shows the operator did what was asked: a 404 or 405 says the target does not serve the path at all
// (so a "rejected" bad signature proves nothing), and a 2XX whose body says the request was ignored
// is not an acceptance.
import { is2xx, is4xx, type StepOutcome } from './steps';
import { EXPECTATION_TEXT, type Expectation } from './expectation';
import { notActedWords } from '../../shared/not-acted';

export { notActedWords };

export interface StepJudgment {
  pass: boolean;
  /** Why it failed, beyond the status and body; absent on a pass. */
  reason?: string;
}

/**
 * accepted: 2XX, and the body does not say the request was ignored or unknown;
 * 2XX: any success (a repeated pay or result may well say "already processed");
 * 200: exactly 200 (an ignored REFUND of an unknown deposit);
 * 4XX: refused (not 404/405, which say the path is not served);
 * error-body: refused with the body of section 2.6;
 * no-5XX: any answer but a server error (2XX, or a 4XX that says why).
 */
/** A status that says the target does not serve the path (or not with POST): no check passes on it. */
export const isNotServed = (s: number | null): boolean => s === 404 || s === 405;

function statusReason(o: StepOutcome, wanted: string): string {
  if (o.status === null) return `no HTTP answer: ${o.error ?? 'unknown error'}`;
  if (isNotServed(o.status)) return `answered ${o.status}: the target does not serve ${o.path} (wrong URL or callback prefix?)`;
  return `answered ${o.status} where ${wanted} was expected`;
}

/** Why an error body does not follow section 2.6, or null when it does. */
export function errorBodyProblem(text: string | null): string | null {
  if (text === null || text.trim() === '') return 'the answer has no body; section 2.6 asks for {"errors": [...]}';
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body is not a JSON object';
  const errors = (body as Record<string, unknown>).errors;
  if (!Array.isArray(errors)) return errors === undefined ? 'the body has no "errors" array' : '"errors" is not an array';
  if (errors.length === 0) return '"errors" is empty: it should name the problem (INSUFFICIENT_BALANCE)';
  for (const [i, e] of errors.entries()) {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return `errors[${i}] is not an object`;
    const item = e as Record<string, unknown>;
    if (typeof item.code !== 'string') return `errors[${i}].code is ${item.code === undefined ? 'missing' : `a ${typeof item.code}, not a string`}`;
    if (typeof item.isClientSafe !== 'boolean') {
      return `errors[${i}].isClientSafe is ${item.isClientSafe === undefined ? 'missing' : `a ${typeof item.isClientSafe} (${JSON.stringify(item.isClientSafe)}), not a boolean`}`;
    }
  }
  return null;
}

export function judgeStep(expectation: Expectation, o: StepOutcome): StepJudgment {
  if (o.status === null || isNotServed(o.status)) return { pass: false, reason: statusReason(o, EXPECTATION_TEXT[expectation]) };
  switch (expectation) {
    case 'accepted': {
      if (!is2xx(o.status)) return { pass: false, reason: statusReason(o, '2XX') };
      const words = notActedWords(o);
      return words === null ? { pass: true } : { pass: false, reason: `answered ${o.status}, but the body says "${words}": the request was not accepted` };
    }
    case '2XX':
      return is2xx(o.status) ? { pass: true } : { pass: false, reason: statusReason(o, '2XX') };
    case '200':
      return o.status === 200 ? { pass: true } : { pass: false, reason: statusReason(o, '200') };
    case '4XX':
      if (is2xx(o.status)) return { pass: false, reason: `answered ${o.status}: the operator accepted what it should refuse` };
      return is4xx(o.status) ? { pass: true } : { pass: false, reason: statusReason(o, '4XX') };
    case 'error-body': {
      if (!is4xx(o.status)) return { pass: false, reason: statusReason(o, '4XX') };
      const problem = errorBodyProblem(o.body);
      return problem === null ? { pass: true } : { pass: false, reason: problem };
    }
    case 'no-5XX':
      return is2xx(o.status) || is4xx(o.status) ? { pass: true } : { pass: false, reason: statusReason(o, 'a 2XX or a 4XX') };
  }
}
