// What an exchange's row alone says is bad news, in the words support staff read: an operator that
// accepted a badly signed callback, and an answer the desk made itself (the operator never answered:
// who answered is derived once, in answered-by.ts, and carried on every summary).
// Shared so the list, the detail, the timeline and the ticket bundle say it the same way.
import type { ExchangeSummary, Verdict } from './model';

type Row = Pick<ExchangeSummary, 'answeredBy'> & { signature: { verdict: Verdict | null }; response: { status: number } | null };

const BAD_VERDICTS: ReadonlySet<Verdict> = new Set(['mismatch', 'missing', 'malformed']);

/**
 * The verdict of a callback that is known to be badly signed and still got a 2XX, or null. `no-secret`
 * is left out: the desk could not check it, so it does not know the operator was wrong; and so is a
 * 2XX the desk made itself (a fault's status): the operator was not asked.
 */
export function acceptedBadSignature(x: Row): Verdict | null {
  const verdict = x.signature.verdict;
  if (verdict === null || !BAD_VERDICTS.has(verdict) || x.response === null || x.answeredBy === 'desk') return null;
  return x.response.status >= 200 && x.response.status < 300 ? verdict : null;
}

const ACCEPTED_WHAT: Record<Verdict, string> = {
  mismatch: 'a callback whose signature does not match its body',
  missing: 'a callback with no signature',
  malformed: 'a callback whose signature is malformed',
  valid: 'a callback with a valid signature',
  'no-secret': 'a callback whose signature it could not have checked',
};

export function acceptedBadSignatureText(verdict: Verdict): string {
  return `the operator accepted ${ACCEPTED_WHAT[verdict]}`;
}

/** Whether the answer (or its absence) was the desk's doing rather than the operator's (answered-by.ts). */
export function deskAnswered(x: Pick<ExchangeSummary, 'answeredBy'>): boolean {
  return x.answeredBy === 'desk';
}

/** "The desk answered 502 itself, not the operator: the desk could not reach ..." for the desk's doing, else null. */
export function deskAnswerText(x: Pick<ExchangeSummary, 'answeredBy' | 'deskCause' | 'response'>): string | null {
  if (x.answeredBy !== 'desk') return null;
  const cause = x.deskCause ?? 'no cause recorded';
  return x.response ? `The desk answered ${x.response.status} itself, not the operator: ${cause}.` : `The desk gave no answer, not the operator: ${cause}.`;
}

/** The desk's answer in a few words for a status column: "desk 502", "desk -" (withheld). */
export function deskStatus(x: Pick<ExchangeSummary, 'response'>): string {
  return `desk ${x.response ? x.response.status : '-'}`;
}
