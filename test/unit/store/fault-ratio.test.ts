// A ratio fault is counted, not drawn: over any run of matching requests it applies to floor(n x P) of
// them, spread evenly, the same on every run.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inRatio } from '../../../src-main/core/store/sqlite/faults';

describe('inRatio', () => {
  it('applies to floor(n x P) of the first n requests, for any share and any n', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 2000 }), (perMille, n) => {
        const ratio = perMille / 1000;
        let applied = 0;
        for (let i = 1; i <= n; i++) if (inRatio(ratio, i)) applied++;
        expect(applied).toBe(Math.floor(n * ratio + 1e-9));
      }),
    );
  });

  it('spreads a half over every second request, and a share of 1 over all', () => {
    expect([1, 2, 3, 4].map((i) => inRatio(0.5, i))).toEqual([false, true, false, true]);
    expect([1, 2, 3].map((i) => inRatio(1, i))).toEqual([true, true, true]);
  });
});
