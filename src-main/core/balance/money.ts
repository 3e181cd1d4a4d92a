// Balances read exactly. A probe writes a balance as a JSON number or a numeric string, in minor units
// (1050) or major units (10.50); the check compares them in the profile's amounts (integer minor units,
// or a decimal), so each reading becomes an exact decimal string in those amounts, or a reason why it
// cannot: a fraction of a minor unit, more decimals than the currency has, a number a double cannot hold.
// Arithmetic is on BigInt minor units: no float drift, no size limit.
import type { AmountsMode, BalanceUnits } from '../../shared/model';
import { parseDecimal, printDecimal, scaledOfNumber, significantDigits, type ScaledDecimal } from '../decimal';

/** Digits after the decimal point of a currency's major unit, where the profile says nothing: cents. */
export const DEFAULT_CURRENCY_EXPONENT = 2;

/**
 * A double carries 15 significant decimal digits for sure: a JSON number with more may not be the one
 * the operator wrote, so it is refused rather than rounded (a numeric string has no such limit).
 */
const MAX_EXACT_DIGITS = 15;

export type MoneyReading = { ok: true; value: string } | { ok: false; reason: string };

function readDecimal(raw: unknown): ScaledDecimal | string {
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return `${raw} is not a balance`;
    const d = scaledOfNumber(raw);
    if (!d) return `${raw} is not a decimal number`;
    if (significantDigits(d) > MAX_EXACT_DIGITS) {
      return `${raw} has more than ${MAX_EXACT_DIGITS} significant digits: as a JSON number it cannot be read exactly (a numeric string can)`;
    }
    return d;
  }
  if (typeof raw === 'string') {
    return parseDecimal(raw) ?? `${JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw)} is not a number`;
  }
  return `${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : `a ${typeof raw}`} is not a balance (a number or a numeric string is)`;
}

/** The value in minor units, or why it has none exactly. */
function minorUnits(d: ScaledDecimal, units: BalanceUnits, exponent: number): bigint | string {
  const shift = units === 'minor' ? 0 : exponent;
  // value = d.units / 10^d.scale major-or-minor units; in minor units: d.units * 10^(shift - scale).
  const by = shift - d.scale;
  if (by >= 0) return d.units * 10n ** BigInt(by);
  const divisor = 10n ** BigInt(-by);
  if (d.units % divisor !== 0n) {
    return units === 'minor' ? 'a balance in minor units has a fraction' : `a balance in major units has more decimals than the currency's ${exponent}`;
  }
  return d.units / divisor;
}

/** Minor units written in the profile's amounts: an integer, or a decimal without trailing zeros (10.5). */
export function formatAmount(minor: bigint, mode: AmountsMode, exponent: number): string {
  return mode === 'integer' ? minor.toString() : printDecimal(minor, exponent);
}

/** The minor units of a balance written in the profile's amounts (what formatAmount wrote). */
export function parseAmount(text: string, mode: AmountsMode, exponent: number): bigint {
  const d = readDecimal(text);
  if (typeof d === 'string') throw new RangeError(d);
  const minor = minorUnits(d, mode === 'integer' ? 'minor' : 'major', exponent);
  if (typeof minor === 'string') throw new RangeError(minor);
  return minor;
}

/** after - before, exactly, in the profile's amounts ("-100", "1.5"). */
export function balanceDelta(before: string, after: string, mode: AmountsMode, exponent = DEFAULT_CURRENCY_EXPONENT): string {
  return formatAmount(parseAmount(after, mode, exponent) - parseAmount(before, mode, exponent), mode, exponent);
}

/** A balance as a probe or an answer wrote it, in the profile's amounts, exactly; or why it cannot be. */
export function readBalance(raw: unknown, units: BalanceUnits, mode: AmountsMode, exponent = DEFAULT_CURRENCY_EXPONENT): MoneyReading {
  if (!Number.isInteger(exponent) || exponent < 0 || exponent > 18) return { ok: false, reason: `a currency exponent is 0 to 18, not ${exponent}` };
  const d = readDecimal(raw);
  if (typeof d === 'string') return { ok: false, reason: d };
  const minor = minorUnits(d, units, exponent);
  if (typeof minor === 'string') return { ok: false, reason: `${String(raw)}: ${minor}` };
  return { ok: true, value: formatAmount(minor, mode, exponent) };
}
