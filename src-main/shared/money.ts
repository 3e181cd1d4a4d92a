// Money by its currency: how many minor units a currency's major unit has (its ISO 4217 exponent),
// and an amount in minor units written as the decimal amount a person reads. The exponent comes from
// the platform's Intl data (ICU, in Node and in Chromium alike), so no table of currencies is kept here.

import type { AmountsMode } from './model';

export const DEFAULT_CURRENCY = 'USD';

/** The exponent of a currency Intl does not know: most currencies have cents. */
const FALLBACK_EXPONENT = 2;

const CURRENCY_CODE = /^[A-Z]{3}$/;

/** Whether the text is an ISO 4217-shaped currency code (three capital letters). */
export function isCurrencyCode(code: string): boolean {
  return CURRENCY_CODE.test(code);
}

const exponents = new Map<string, number>();

/** The ISO 4217 exponent: JPY 0, EUR 2, BHD 3; 2 for a code Intl does not know. */
export function currencyExponent(code: string | null | undefined): number {
  const key = (code ?? '').toUpperCase();
  if (!isCurrencyCode(key)) return FALLBACK_EXPONENT;
  let exponent = exponents.get(key);
  if (exponent === undefined) {
    try {
      exponent = new Intl.NumberFormat('en', { style: 'currency', currency: key }).resolvedOptions().maximumFractionDigits ?? FALLBACK_EXPONENT;
    } catch {
      exponent = FALLBACK_EXPONENT;
    }
    exponents.set(key, exponent);
  }
  return exponent;
}

/**
 * Minor units as the decimal amount, exactly (by digits, not by float division): 100 EUR minor units is
 * "1.00", 100 JPY is "100", 1234 BHD is "1.234". Null for an amount that is not a whole number of minor units.
 */
export function minorToDecimal(minor: number, exponent: number): string | null {
  if (!Number.isSafeInteger(minor)) return null;
  const digits = Math.abs(minor).toString();
  if (exponent === 0) return `${minor < 0 ? '-' : ''}${digits}`;
  const padded = digits.padStart(exponent + 1, '0');
  return `${minor < 0 ? '-' : ''}${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
}

export type AmountStyle = 'compact' | 'detail';

/** Whether a profile's amounts are minor units: integer, the default, when the profile is not known. */
export function writesMinorUnits(amounts: AmountsMode | null | undefined): boolean {
  return (amounts ?? 'integer') === 'integer';
}

/**
 * An amount as a person reads it. On an integer (minor units) profile 100 EUR is "1.00 EUR" in a list and
 * "1.00 EUR (100 minor units)" in a detail and on a terminal (the CLI's table and `show`, the UI's detail:
 * one form, so the same capture never reads 100 in one place and 1.00 in another); a decimal profile's
 * amounts are already major units.
 */
export function formatMoney(amount: number | null, currency: string | null, minorUnits: boolean, style: AmountStyle = 'compact'): string {
  if (amount === null && currency === null) return '';
  if (amount === null) return `? ${currency}`;
  const unit = currency ?? '';
  if (minorUnits) {
    const decimal = minorToDecimal(amount, currencyExponent(currency));
    if (decimal !== null) {
      const major = `${decimal} ${unit}`.trim();
      return style === 'detail' ? `${major} (${amount} minor units)` : major;
    }
  }
  return `${amount} ${unit}`.trim();
}
