// How an answer is judged against what the spec expects.
import { describeOutcome, is2xx, is4xx, type StepOutcome } from './steps';

export interface Judgement {
  pass: boolean;
  /** Why it failed, beyond the status and body; absent on a pass. */
  reason?: string;
}

export type Expectation = '2XX' | '200' | '4XX' | 'error-body';

export const EXPECTATION_TEXT: Record<Expectation, string> = {
  '2XX': 'status 2XX',
  '200': 'status 200',
  '4XX': 'status 4XX',
  'error-body': 'status 4XX with a JSON body {"errors": [...]}, each error with a string "code" and a boolean "isClientSafe"',
};

function statusReason(o: StepOutcome, wanted: string): string {
  return o.status === null ? `no HTTP answer: ${o.error ?? 'unknown error'}` : `answered ${o.status} where ${wanted} was expected`;
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

export function judge(expectation: Expectation, o: StepOutcome): Judgement {
  switch (expectation) {
    case '2XX':
      return is2xx(o.status) ? { pass: true } : { pass: false, reason: statusReason(o, '2XX') };
    case '200':
      return o.status === 200 ? { pass: true } : { pass: false, reason: statusReason(o, '200') };
    case '4XX':
      return is4xx(o.status) ? { pass: true } : { pass: false, reason: statusReason(o, '4XX') };
    case 'error-body': {
      if (!is4xx(o.status)) return { pass: false, reason: statusReason(o, '4XX') };
      const problem = errorBodyProblem(o.body);
      return problem === null ? { pass: true } : { pass: false, reason: problem };
    }
  }
}

/** One line that says what each step answered. */
export function outcomesLine(outcomes: StepOutcome[]): string {
  return outcomes.map((o) => `${o.label}: ${describeOutcome(o, 80)}`).join('; ');
}
