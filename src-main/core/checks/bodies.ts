// The messages the edge cases and the conformance check send. Valid messages come from the protocol
// builders; the deliberately odd ones (non-canonical spelling, edge amounts, empty bodies) are
// written here by hand, member by member.
import type { ResultValue } from '../../shared/model';
import { buildPay, buildResult, creditFor, DEFAULT_CURRENCY, toBytes } from '../protocol';
import type { PayInput, ResultInput } from '../protocol';
import { escapedString, membersOf, withRaw, writeObject } from './raw-json';

const SMALL_STAKE = 1.5;
/** Far above any balance a test user holds. */
export const HUGE_AMOUNT = 1_000_000_000;

export function payObject(input: PayInput): Record<string, unknown> {
  return { ...buildPay({ amount: SMALL_STAKE, ...input }) };
}

export function payBytes(input: PayInput): Uint8Array {
  return toBytes(payObject(input));
}

function resultObject(result: ResultValue, input: ResultInput): Record<string, unknown> {
  // A result for a SMALL_STAKE pay, with the amount the protocol's convention gives it.
  const amount = creditFor(result, SMALL_STAKE);
  return { ...buildResult(result, { ...(amount === null ? {} : { amount }), ...input }) };
}

export function resultBytes(result: ResultValue, input: ResultInput): Uint8Array {
  return toBytes(resultObject(result, input));
}

/** A results body with a gameId outside the enum: the builders refuse it, so it is written directly. */
export function resultWithGame(result: ResultValue, input: ResultInput & { gameId?: never }, gameId: string): Uint8Array {
  return toBytes({ ...resultObject(result, input), gameId });
}

/** A pay with its amount spelled as given (0.01, 1e2, 0, -5, 10.50). */
export function payWithRawAmount(input: PayInput, rawAmount: string): Uint8Array {
  return writeObject(withRaw(membersOf(payObject(input)), 'amount', rawAmount));
}

export const nonCanonical = {
  /** Pretty-printed with two spaces and a trailing newline. */
  pretty: (input: PayInput): Uint8Array => writeObject(membersOf(payObject(input)), { indent: 2, trailingNewline: true }),
  /** The amount with a trailing zero, which a re-serializer writes as 10.5. */
  decimal: (input: PayInput): Uint8Array => payWithRawAmount({ ...input, amount: 10.5 }, '10.50'),
  /** The currency written as \u escapes ("\u0055\u0053\u0044" is "USD"). */
  escapes: (input: PayInput): Uint8Array => writeObject(withRaw(membersOf(payObject(input)), 'currency', escapedString(input.currency ?? DEFAULT_CURRENCY))),
  /** The members in reverse order of the spec's table, as a typed model with another field order would write them. */
  keyOrder: (input: PayInput): Uint8Array => writeObject(membersOf(payObject(input)).reverse()),
  /** All of the above at once: what the conformance check sends. */
  all: (input: PayInput): Uint8Array => {
    const stake = input.amount ?? SMALL_STAKE;
    let members = membersOf(payObject({ ...input, amount: stake })).reverse();
    members = withRaw(members, 'currency', escapedString(input.currency ?? DEFAULT_CURRENCY));
    members = withRaw(members, 'amount', Number.isInteger(stake) ? `${stake}.00` : `${stake}0`);
    return writeObject(members, { indent: 2, trailingNewline: true });
  },
};

/** Not one of the spec's games. */
export const UNKNOWN_GAME = 'chess';
