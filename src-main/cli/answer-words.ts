// Who answered and what the answer means, in the CLI's words: the same judgments the UI draws
// (shared/exchange-warnings.ts), so `captures`, `tail` and `show` say what the list and the detail say.
import type { ExchangeSummary } from '../shared/model';
import { acceptedBadSignature, acceptedBadSignatureText, deskStatus } from '../shared/exchange-warnings';

type Row = Pick<ExchangeSummary, 'response' | 'error' | 'answeredBy' | 'deskCause' | 'signature'>;

/** A status cell: "200", "desk 502" (the desk answered in the operator's place), "200 ⚑" (a bad signature accepted), "error", "-". */
export function statusWords(x: Row): string {
  if (x.answeredBy === 'desk') return deskStatus(x);
  if (x.response === null) return x.error ? 'error' : '-';
  return acceptedBadSignature(x) ? `${x.response.status} ⚑` : String(x.response.status);
}

/** What a line adds after the status: the desk's cause, or the accepted-bad-signature flag; '' when neither. */
export function answerNote(x: Row): string {
  if (x.answeredBy === 'desk') return `by the desk: ${x.deskCause ?? 'no cause recorded'}`;
  const accepted = acceptedBadSignature(x);
  return accepted ? `⚑ accepted-bad-signature: ${acceptedBadSignatureText(accepted)}` : '';
}
