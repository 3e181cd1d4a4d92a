// Exact arithmetic on the decimal strings balances are read as ("1000", "998.50", "-0.5"): a balance
// delta is judged to the last digit, so it is done on integers scaled by a power of ten, never on doubles.
// The balance readings, the conformance check's money verdicts and the sandbox's books all work on these.

/** A decimal as an integer and where its point is: 10.50 is 1050 at scale 2. */
export interface ScaledDecimal {
  /** The digits without the point, signed. */
  units: bigint;
  /** How many of them are after the point. */
  scale: number;
}

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;
/** How String() writes a finite number: 100, -1.5, 1e+21, 1.5e-7. */
const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/** A plain decimal ("10.50", "-3", " +1.5 "), as written; null for anything else (no exponent, no "1."). */
export function parseDecimal(text: string): ScaledDecimal | null {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt(`${whole}${fraction}`);
  return { units: sign === '-' ? -units : units, scale: fraction.length };
}

/**
 * A number as the decimal its shortest spelling writes (what the sender wrote: 0.1 is 1 at scale 1, 1e21 is
 * 10^21 at scale 0), exactly; null for NaN and the infinities.
 */
export function scaledOfNumber(value: number): ScaledDecimal | null {
  const match = NUMBER_TEXT.exec(String(value));
  if (!match) return null;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let scale = fraction.length - Number(exponent);
  let units = BigInt(`${whole}${fraction}`);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

/** How many significant digits a decimal has (1050 at scale 2 has three: 1, 0, 5). */
export function significantDigits(x: ScaledDecimal): number {
  return (x.units < 0n ? -x.units : x.units).toString().replace(/0+$/, '').length;
}

function atScale(x: ScaledDecimal, scale: number): bigint {
  return x.units * 10n ** BigInt(scale - x.scale);
}

/** x + y, exactly, at the finer of their scales. */
export function sumOf(x: ScaledDecimal, y: ScaledDecimal): ScaledDecimal {
  const scale = Math.max(x.scale, y.scale);
  return { units: atScale(x, scale) + atScale(y, scale), scale };
}

/** units / 10^scale written out without trailing zeros: (1050n, 2) is "10.5", (100n, 2) is "1". */
export function printDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  if (scale > 0) {
    digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`.replace(/\.?0+$/, '');
  }
  return `${negative ? '-' : ''}${digits}`;
}

/** A JSON number as the decimal it was written as (100, 1.5): the shortest spelling, without an exponent. */
export function decimalOf(amount: number): string {
  if (!Number.isFinite(amount)) throw new RangeError(`not a finite amount: ${amount}`);
  const text = String(amount);
  if (!/e/i.test(text)) return text;
  // toFixed writes an exponent again from 1e21 up, where every double is an integer anyway.
  if (Number.isInteger(amount)) return BigInt(amount).toString();
  return amount.toFixed(20).replace(/\.?0+$/, '');
}

/** after - before, exactly; null when either is not a plain decimal. */
export function decimalDelta(before: string, after: string): string | null {
  const a = parseDecimal(before);
  const b = parseDecimal(after);
  if (!a || !b) return null;
  const delta = sumOf(b, { units: -a.units, scale: a.scale });
  return printDecimal(delta.units, delta.scale);
}

/** Whether two decimals are the same number (1.50 and 1.5 are). */
export function decimalEquals(x: string, y: string): boolean {
  return decimalDelta(x, y) === '0';
}
