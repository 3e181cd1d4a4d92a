// Amounts as the profile's operator writes them. The spec leaves units and bounds open; most operators
// keep integer minor units (an INTEGER column of cents), some a decimal. The desk invents amounts in the
// profile's mode, and on an integer profile a pay whose amount has a fraction is an error: that
// operator cannot store it (a 400, or a 500 when the database refuses it).
import type { AmountsMode, Finding, KeyFields } from '../../shared/model';
import { isPlainObject } from './finding-text';
import { readJsonBody } from './json-body';

export const DEFAULT_AMOUNTS: AmountsMode = 'integer';

/** The stake of checks, edge cases and templates: 100 minor units (1.00), or 1.5 where amounts have fractions. */
export function defaultStake(mode: AmountsMode): number {
  return mode === 'integer' ? 100 : 1.5;
}

/** The sandbox's starting balance for a user it has not seen: 1,000.00 either way. */
export function defaultStartingBalance(mode: AmountsMode): number {
  return mode === 'integer' ? 100_000 : 1000;
}

/** Why an amount the desk is asked to invent (a stake, a starting balance) does not fit the mode, or null. */
export function amountProblem(amount: number, mode: AmountsMode): string | null {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return 'an amount is a finite number';
  if (!(amount > 0)) return `an amount must be greater than 0; got ${amount}`;
  if (mode === 'integer' && !Number.isSafeInteger(amount)) {
    return `the profile writes amounts as integers in minor units (100 for 1.00); got ${amount}`;
  }
  return null;
}

/**
 * The findings of the amounts rule for a callback body: on an integer profile, an amount with a
 * fraction is an error (non-positive amounts are errors in every mode, from the field rules). Only the
 * messages that carry an amount (pay, and results with one) are judged; anything unreadable is left to
 * the other findings.
 */
export function amountFindings(kind: 'pay' | 'results' | 'other', body: Uint8Array | KeyFields, mode: AmountsMode): Finding[] {
  if (mode !== 'integer' || kind === 'other') return [];
  const amount = amountOf(body);
  if (typeof amount !== 'number' || !Number.isFinite(amount) || !(amount > 0) || Number.isInteger(amount)) return [];
  return [
    {
      level: 'error',
      path: '$.amount',
      message: `amount ${amount} has a fraction, but the profile writes amounts as integers in minor units (150 for 1.50): an operator that stores integers refuses it`,
    },
  ];
}

function amountOf(body: Uint8Array | KeyFields): unknown {
  if (!(body instanceof Uint8Array)) return body.amount;
  const read = readJsonBody(body);
  return read.ok && isPlainObject(read.value) ? read.value.amount : undefined;
}
