// The rules of the spec (docs/operator-interface.md) the checks are generated from: each with its
// section and its words, so that a report says which rule a check tests.
import type { CheckRule } from '../../../shared/model';

const rule = (section: string, text: string): CheckRule => ({ section, text, source: 'spec' });

/** Where the spec says nothing: the desk's advice, whose miss is a warning, never a failure. */
const advice = (text: string): CheckRule => ({ section: '8', text, source: 'advice' });

export const RULES = {
  payDeducts: rule('3', "pay request, first time this depositId is seen: deduct amount from the user's balance; store depositId with amount"),
  payAccepted: rule('4.1', 'POST /pay: success response status 2XX'),
  payIdempotent: rule('3', 'pay request, depositId already processed: do not deduct again (idempotency)'),
  winCredits: rule('3', "results with WIN, first time for this depositId: credit the user's balance by amount"),
  drawCredits: rule('3', "results with DRAW, first time for this depositId: credit the user's balance by amount"),
  loseNoAction: rule('3', 'results with LOSE: no action required'),
  refundStored: rule('3', 'results with REFUND, depositId stored: look up the stored amount and refund the user with it'),
  refundUnknown: rule('3, 4.1, 7.3', 'results with REFUND, depositId never stored: ignore the request and answer status 200'),
  resultsOnce: rule('3', 'results (any), same depositId already processed: do not process twice'),
  payFirst: rule('3', 'payment of an entry is the precondition of every outcome'),
  signature: rule(
    '5.1, 7.4',
    'the operator recomputes the HMAC over the received payload with the shared secret; when the values differ it rejects the request',
  ),
  rawBytes: rule('5.1', 'the HMAC is computed over the received payload: the raw bytes as sent, whatever their spacing, escapes or key order'),
  resultShape: rule(
    '2.2',
    'the fields of a result depend on its value (LOSE has no currency nor amount; REFUND may carry null roomId and gameId; tournamentId is optional)',
  ),
  payShape: rule('2.1', 'tournamentId is present only for a tournament entry'),
  refusal: rule(
    '2.6, 4.1, 7.1, 7.2',
    'a refused payment: status 4XX with {"errors": [{"code", "isClientSafe"}]}; only isClientSafe true reaches the client\'s handleError',
  ),
  refusedNoCharge: rule('7.1', 'a pay the operator cannot accept is refused, and refused means not deducted'),
  notStated: advice("the desk's advice, not stated by the spec: a robust operator answers without a 5XX and charges nothing for what it refuses"),
} as const;
