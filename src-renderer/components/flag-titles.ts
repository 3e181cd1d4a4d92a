import type { TimelineFlag } from '../../src-main/shared/model';

/** A deposit flag's name as the timeline and the detail show it (the message says the rest). */
export const FLAG_TITLES: Record<TimelineFlag, string> = {
  'duplicate-pay': 'Duplicate pay',
  'duplicate-results': 'Duplicate results',
  'results-without-pay': 'Results without a pay',
  'conflicting-outcomes': 'Conflicting outcomes',
  'credit-and-refund': 'Credited and refunded',
  'amount-differs': 'Amount differs from the pay',
  'pay-changed': 'Pay repeated with other fields',
  'accepted-bad-signature': 'Badly signed, accepted',
};

/** What "Nothing unusual" means: every flag above was looked for. */
export const NOTHING_UNUSUAL =
  'Nothing unusual: no repeated or conflicting callbacks, no results without a pay, no amount that differs from the pay, no changed pay, no badly signed callback accepted.';
