// The ids a group statement drew for later groups: handed out oldest first, each once, and only while
// young enough that a follower or the text indexer still looks for their rows.
import { describe, expect, it } from 'vitest';
import { MAX_DRAW_AHEAD, SPARE_MS, SpareIds } from '../../../src-main/core/store/postgres/spare-ids';

describe('spare ids', () => {
  it('hands out each id once, oldest drawn first, across the statements that drew them', () => {
    const spare = new SpareIds();
    spare.add([10, 11, 12], 1_000);
    spare.add([20, 21], 1_001);
    expect(spare.take(2, 1_002)).toEqual([10, 11]);
    expect(spare.take(4, 1_002)).toEqual([12, 20, 21]);
    expect(spare.take(1, 1_002)).toEqual([]);
  });

  it('drops ids older than SPARE_MS: they stay gaps rather than rows committed after followers stopped looking', () => {
    const spare = new SpareIds();
    spare.add([1, 2], 0);
    spare.add([3], SPARE_MS);
    expect(spare.take(3, SPARE_MS + 1)).toEqual([3]);
    spare.add([4], 0);
    expect(spare.take(1, SPARE_MS)).toEqual([4]);
  });

  it('draws ahead, when busy, as many as the last group used, up to a bound; when idle, none', () => {
    expect(SpareIds.ahead(0, true)).toBe(0);
    expect(SpareIds.ahead(1, true)).toBe(1);
    expect(SpareIds.ahead(7, false)).toBe(7);
    expect(SpareIds.ahead(100_000, true)).toBe(MAX_DRAW_AHEAD);
    // One capture on an idle writer: its next one takes an id after whatever committed meanwhile.
    expect(SpareIds.ahead(1, false)).toBe(0);
  });
});
