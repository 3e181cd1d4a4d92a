// Balances without float drift. Amounts arrive as JSON numbers, so each is a double whose shortest
// decimal spelling is what the sender wrote (10.5, 0.1, 100). Sums are done on those decimals, as
// integers scaled by a power of ten (BigInt), and the exact result becomes the double nearest to it:
// 0.1 + 0.2 is 0.3, not 0.30000000000000004. Integer minor units are the case where the scale is 1,
// and stay exact up to 2^53. The books keep the double (SQLite REAL), which prints back as the same
// decimal while it has at most 15 significant digits: any balance under 10^13 with two decimals.
import { printDecimal, scaledOfNumber, sumOf, type ScaledDecimal } from '../decimal';

function scaled(value: number): ScaledDecimal {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
  const x = scaledOfNumber(value);
  if (!x) throw new RangeError(`not a decimal amount: ${value}`);
  return x;
}

/** a + b, exactly in decimal, as the nearest double. */
export function addExact(a: number, b: number): number {
  const sum = sumOf(scaled(a), scaled(b));
  return Number(printDecimal(sum.units, sum.scale));
}

/** a - b, exactly in decimal, as the nearest double. */
export function subtractExact(a: number, b: number): number {
  return addExact(a, -b);
}
