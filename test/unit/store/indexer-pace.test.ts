// The background text indexers (SQLite's worker, the team's on PostgreSQL) take half the time while a
// backlog lasts, and about a hundredth while the proxies write more than 100 captures a second, also
// once they have caught up (store/indexer-pace.ts).
import { describe, expect, it } from 'vitest';
import { INDEXER_PACE, waitAfterBatch, type BatchOutcome } from '../../../src-main/core/store/indexer-pace';
import { LogGrowth } from '../../../src-main/core/store/postgres/text-indexer';

const after = (ms: number, rowsPerSecond: number, pending = 1_000, indexed = 500): BatchOutcome => ({ ms, indexed, pending, rowsPerSecond });

describe("the indexers' pace", () => {
  it('pauses as long as a batch took while the log is quiet, 99 times as long (2 s at most) while it is busy', () => {
    expect(waitAfterBatch(after(20, 0), INDEXER_PACE)).toBe(20);
    expect(waitAfterBatch(after(20, 100), INDEXER_PACE)).toBe(20);
    expect(waitAfterBatch(after(20, 101), INDEXER_PACE)).toBe(1_980);
    expect(waitAfterBatch(after(0.2, 5_000), INDEXER_PACE)).toBe(20);
    expect(waitAfterBatch(after(300, 5_000), INDEXER_PACE)).toBe(2_000);
    expect(waitAfterBatch(after(300, 0), INDEXER_PACE)).toBe(300);
    expect(waitAfterBatch(after(0, 0), INDEXER_PACE)).toBe(1);
  });

  it('keeps to a hundredth while busy also when a batch caught up, and looks again at leisure when quiet', () => {
    // Caught up under a load test: the next batch would index the next quarter second's captures at
    // once, the indexer then keeping pace with the load on the captures' cores.
    expect(waitAfterBatch(after(12, 6_000, 0), INDEXER_PACE)).toBe(1_188);
    expect(waitAfterBatch(after(12, 50, 0), INDEXER_PACE)).toBe(INDEXER_PACE.idleMs);
    expect(waitAfterBatch(after(12, 6_000, 0, 0), INDEXER_PACE)).toBe(INDEXER_PACE.idleMs);
  });

  it("is self-contained, as SQLite's worker evaluates it from its source", () => {
    const copy = new Function(`return ${waitAfterBatch.toString()};`)() as typeof waitAfterBatch;
    for (const b of [after(20, 0), after(20, 101), after(300, 5_000), after(12, 6_000, 0), after(12, 50, 0), after(5, 0, 0, 0)])
      expect(copy(b, INDEXER_PACE)).toBe(waitAfterBatch(b, INDEXER_PACE));
  });

  it('measures the log growing from what each batch indexed and left pending', () => {
    const growth = new LogGrowth();
    expect(growth.rate(100, 500, 1_000)).toBe(0);
    // 200 indexed, 400 left: 100 rows written in half a second.
    expect(growth.rate(200, 400, 1_500)).toBe(200);
    // Nothing written for a second: the backlog only shrank.
    expect(growth.rate(300, 100, 2_500)).toBe(0);
  });
});
