// The messages the edge cases and the conformance check send. Valid messages come from the protocol
// builders; the deliberately odd ones (non-canonical spelling, edge amounts, empty bodies) are
// written here by hand, member by member. Every amount follows the run's amounts mode and stake:
// integer minor units by default, since an operator with an INTEGER column refuses 1.5 (or fails).
import type { AmountsMode, ResultValue } from '../../shared/model';
import { buildPay, buildResult, creditFor, DEFAULT_CURRENCY, toBytes } from '../protocol';
import type { PayInput, ResultInput } from '../protocol';
import { escapedString, membersOf, withRaw, writeObject } from './raw-json';

/** Far above any balance a test user holds, in either mode. */
export const HUGE_AMOUNT = 1_000_000_000;

/** Not one of the spec's games. */
export const UNKNOWN_GAME = 'chess';

export class Bodies {
  constructor(
    readonly amounts: AmountsMode,
    readonly stake: number,
    /** The profile's currency: what every body carries unless a case names another. */
    readonly currency: string = DEFAULT_CURRENCY,
  ) {}

  payObject(input: PayInput): Record<string, unknown> {
    return { ...buildPay({ amount: this.stake, currency: this.currency, ...input }) };
  }

  /** A real currency that is not the profile's: what a player in another market would pay in. */
  otherCurrency(): string {
    return this.currency === 'USD' ? 'EUR' : 'USD';
  }

  pay(input: PayInput): Uint8Array {
    return toBytes(this.payObject(input));
  }

  resultObject(result: ResultValue, input: ResultInput): Record<string, unknown> {
    // A result for a pay of the run's stake, with the amount the protocol's convention gives it.
    const amount = creditFor(result, this.stake);
    return { ...buildResult(result, { ...(amount === null ? {} : { amount, currency: this.currency }), ...input }) };
  }

  result(result: ResultValue, input: ResultInput): Uint8Array {
    return toBytes(this.resultObject(result, input));
  }

  /** A results body with a gameId outside the enum: the builders refuse it, so it is written directly. */
  resultWithGame(result: ResultValue, input: ResultInput & { gameId?: never }, gameId: string): Uint8Array {
    return toBytes({ ...this.resultObject(result, input), gameId });
  }

  /** A pay with its amount spelled as given (1e2, 0, -5, 10.50). */
  payWithRawAmount(input: PayInput, rawAmount: string): Uint8Array {
    return writeObject(withRaw(membersOf(this.payObject(input)), 'amount', rawAmount));
  }

  /**
   * Positive amounts in spellings a parser must read as the same number, then 0 and -5. An integer
   * operator is sent integers only (1 and the stake as 1e2-style exponents would be floats to many parsers).
   */
  edgeAmounts(): Array<{ raw: string; positive: boolean }> {
    const positive = this.amounts === 'integer' ? ['1', String(this.stake)] : ['0.01', '1e2'];
    return [...positive.map((raw) => ({ raw, positive: true })), { raw: '0', positive: false }, { raw: '-5', positive: false }];
  }

  /**
   * The stake with a trailing zero in its fraction (10.50), which a re-serializer writes as 10.5.
   * On an integer profile the amount stays a plain integer: 100.00 is a float to many parsers, and
   * refusing it is right for an operator that stores integers.
   */
  decimalSpelling(input: PayInput): Uint8Array {
    if (this.amounts === 'integer') return this.pay(input);
    return this.payWithRawAmount({ ...input, amount: 10.5 }, '10.50');
  }

  /** Pretty-printed with two spaces and a trailing newline. */
  pretty(input: PayInput): Uint8Array {
    return writeObject(membersOf(this.payObject(input)), { indent: 2, trailingNewline: true });
  }

  /** The currency written as \u escapes ("\u0055\u0053\u0044" is "USD"). */
  escapes(input: PayInput): Uint8Array {
    return writeObject(withRaw(membersOf(this.payObject(input)), 'currency', escapedString(input.currency ?? this.currency)));
  }

  /** The members in reverse order of the spec's table, as a typed model with another field order would write them. */
  keyOrder(input: PayInput): Uint8Array {
    return writeObject(membersOf(this.payObject(input)).reverse());
  }

  /** All of the above at once: what the conformance check sends. */
  allNonCanonical(input: PayInput): Uint8Array {
    const stake = input.amount ?? this.stake;
    let members = membersOf(this.payObject({ ...input, amount: stake })).reverse();
    members = withRaw(members, 'currency', escapedString(input.currency ?? this.currency));
    if (this.amounts === 'decimal') members = withRaw(members, 'amount', Number.isInteger(stake) ? `${stake}.00` : `${stake}0`);
    return writeObject(members, { indent: 2, trailingNewline: true });
  }
}
