// How one answer is judged against what a step expects, status first: a 404 or 405 is "not served"
// only when the path never answered 2XX in the run and the body is not the spec's error body (an
// operator's 404 USER_NOT_FOUND is an answer); a refused pay passes only when the client SDK can show
// it; the words of a 2XX body are read last, and only by the caller that knows the money.
import { EXPECTATION_TEXT, type Expectation } from '../expectation';
import { errorBodyProblem, isNotServed } from '../judge';
import { is2xx, is4xx, type StepOutcome } from '../steps';

/** What a run has seen so far that changes how an answer reads. */
export interface RunMemory {
  /** Paths that answered 2XX at least once in the run: a 404 from them is an answer, not a wrong URL. */
  answered2xx: Set<string>;
}

export interface AnswerJudgment {
  pass: boolean;
  reason?: string;
  /** For a refused pay: what the client SDK receives. */
  clientSees?: string;
}

/** The body carries the spec's error shape (section 2.6): an object whose errors[] name a code. */
function hasSpecErrorBody(body: string | null): boolean {
  try {
    const parsed = JSON.parse(body ?? '') as { errors?: unknown };
    return Array.isArray(parsed.errors) && parsed.errors.some((e) => typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string');
  } catch {
    return false;
  }
}

/** A 404/405 that says the path is not served at all, rather than an operator's answer. */
export function notServed(o: StepOutcome, memory: RunMemory): boolean {
  return isNotServed(o.status) && !memory.answered2xx.has(o.path) && !hasSpecErrorBody(o.body);
}

function statusReason(o: StepOutcome, wanted: string, memory: RunMemory): string {
  if (o.status === null) return `no HTTP answer: ${o.error ?? 'unknown error'}`;
  if (notServed(o, memory)) return `answered ${o.status}: the target does not serve ${o.path} (wrong URL or callback prefix?)`;
  return `answered ${o.status} where ${wanted} was expected`;
}

/** Why a refused pay's error does not reach the client SDK's handleError, or null when it does. */
export function clientSafeProblem(body: string | null): string | null {
  const shape = errorBodyProblem(body);
  if (shape !== null) return shape;
  const errors = (JSON.parse(body as string) as { errors: Array<{ code: string; isClientSafe: boolean }> }).errors;
  const unsafe = errors.findIndex((e) => e.isClientSafe !== true);
  return unsafe < 0 ? null : `errors[${unsafe}].isClientSafe is false`;
}

/** What the client SDK receives of an answer to a pay the operator should refuse. */
function clientSeesOf(o: StepOutcome): string {
  if (is2xx(o.status)) return 'no error: the entry goes through';
  const problem = is4xx(o.status) ? clientSafeProblem(o.body) : `status ${o.status ?? 'none'} is not a 4XX refusal`;
  if (problem === null) {
    const codes = (JSON.parse(o.body as string) as { errors: Array<{ code: string }> }).errors.map((e) => e.code);
    return `handleError receives ${codes.join(', ')}`;
  }
  return `nothing reaches handleError (${problem}): the player sees a generic failure`;
}

export function judgeAnswer(expectation: Expectation, o: StepOutcome, memory: RunMemory): AnswerJudgment {
  if (expectation === 'error-body') {
    const clientSees = clientSeesOf(o);
    if (!is4xx(o.status) || notServed(o, memory)) return { pass: false, reason: statusReason(o, '4XX', memory), clientSees };
    const problem = clientSafeProblem(o.body);
    return problem === null ? { pass: true, clientSees } : { pass: false, reason: `${problem}; the client sees: ${clientSees}`, clientSees };
  }
  if (o.status === null || notServed(o, memory)) return { pass: false, reason: statusReason(o, EXPECTATION_TEXT[expectation], memory) };
  switch (expectation) {
    case 'accepted':
    case '2XX':
      return is2xx(o.status) ? { pass: true } : { pass: false, reason: statusReason(o, '2XX', memory) };
    case '200':
      return o.status === 200 ? { pass: true } : { pass: false, reason: statusReason(o, '200', memory) };
    case '4XX':
      if (is2xx(o.status)) return { pass: false, reason: `answered ${o.status}: the operator accepted what it should refuse` };
      return is4xx(o.status) ? { pass: true } : { pass: false, reason: statusReason(o, '4XX', memory) };
    case 'no-5XX':
      return is2xx(o.status) || is4xx(o.status) ? { pass: true } : { pass: false, reason: statusReason(o, 'a 2XX or a 4XX', memory) };
  }
}

/**
 * The depositId an answer names when it is not the one the request carried (an answer for another
 * deposit: idempotency keyed on the user), or null when it names none or the right one.
 */
export function otherDepositNamed(o: StepOutcome): string | null {
  if (!is2xx(o.status)) return null;
  try {
    const named = (JSON.parse(o.body ?? '') as { depositId?: unknown }).depositId;
    return typeof named === 'string' && !o.sentIds.includes(named) ? named : null;
  } catch {
    return null;
  }
}
