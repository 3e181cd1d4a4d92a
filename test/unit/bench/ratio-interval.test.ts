// The benchmark's summary of a side-by-side run: the geometric mean of the rounds' ratios and its 95%
// interval, so that a few percent is read against the spread between rounds (bench/lib/stats.ts).
import { describe, expect, it } from 'vitest';
import { ratioInterval } from '../../../bench/lib/stats';

describe('ratioInterval', () => {
  it('weighs a ratio and its inverse the same', () => {
    const i = ratioInterval([1.25, 0.8])!;
    expect(i.mean).toBeCloseTo(1, 12);
    expect(i.low!).toBeLessThan(1);
    expect(i.high!).toBeGreaterThan(1);
  });

  it('narrows as rounds agree, and is empty of spread when they are equal', () => {
    expect(ratioInterval([0.97, 0.97, 0.97])).toEqual({ mean: expect.closeTo(0.97, 12), low: expect.closeTo(0.97, 12), high: expect.closeTo(0.97, 12) });
    const wide = ratioInterval([0.8, 1.2, 0.9, 1.1])!;
    const narrow = ratioInterval([0.98, 1.02, 0.99, 1.01])!;
    expect(wide.high! - wide.low!).toBeGreaterThan(narrow.high! - narrow.low!);
  });

  it("uses Student's t: two rounds 0.9x and 1.1x leave 1.0x well inside", () => {
    // logs ±0.1003 around -0.005; sd 0.1419; t(1) = 12.71: half-width 12.71 * 0.1419 / √2 = 1.275 in logs.
    const i = ratioInterval([0.9, 1.1])!;
    expect(Math.log(i.high! / i.mean)).toBeCloseTo(1.275, 2);
    expect(i.low!).toBeLessThan(0.3);
  });

  it('has no bounds for one round and nothing for none (or a missing ratio)', () => {
    expect(ratioInterval([1.05])).toEqual({ mean: 1.05, low: null, high: null });
    expect(ratioInterval([])).toBeNull();
    expect(ratioInterval([Number.NaN, 0])).toBeNull();
  });
});
