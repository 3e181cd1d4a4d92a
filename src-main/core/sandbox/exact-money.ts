// Balances without float drift. Amounts arrive as JSON numbers, so each is a double whose shortest
// decimal spelling is what the sender wrote (10.5, 0.1, 100). Sums are done on those decimals, as
// integers scaled by a power of ten (BigInt), and the exact result becomes the double nearest to it:
// 0.1 + 0.2 is 0.3, not 0.30000000000000004. Integer minor units are the case where the scale is 1,
// and stay exact up to 2^53. The books keep the double (SQLite REAL), which prints back as the same
// decimal while it has at most 15 significant digits: any balance under 10^13 with two decimals.

interface Scaled {
  units: bigint;
  /** Digits after the decimal point. */
  scale: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

function scaled(value: number): Scaled {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
  const match = DECIMAL.exec(String(value));
  if (!match) throw new RangeError(`not a decimal amount: ${value}`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = `${whole}${fraction}`;
  let scale = fraction.length - Number(exponent);
  let units = BigInt(digits);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

function atScale(x: Scaled, scale: number): bigint {
  return x.units * 10n ** BigInt(scale - x.scale);
}

function toNumber(units: bigint, scale: number): number {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return Number(`${negative ? '-' : ''}${text}`);
}

/** a + b, exactly in decimal, as the nearest double. */
export function addExact(a: number, b: number): number {
  const x = scaled(a);
  const y = scaled(b);
  const scale = Math.max(x.scale, y.scale);
  return toNumber(atScale(x, scale) + atScale(y, scale), scale);
}

/** a - b, exactly in decimal, as the nearest double. */
export function subtractExact(a: number, b: number): number {
  return addExact(a, -b);
}
