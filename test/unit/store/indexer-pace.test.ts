// The background text indexers (SQLite's worker, the team's on PostgreSQL) take half the time while a
// backlog lasts; while the proxies write more than 100 captures a second they index nothing until
// 50,000 rows wait (2,500 on PostgreSQL), and past that about a hundredth, also once they have caught
// up (store/indexer-pace.ts).
import { describe, expect, it } from 'vitest';
import {
  INDEXER_PACE,
  TEAM_INDEXER_PACE,
  rowsPerSecondBetween,
  waitAfterBatch,
  waitsOutTheLoad,
  type BatchOutcome,
} from '../../../src-main/core/store/rows/indexer-pace';
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

  it('leaves a backlog short of 50,000 rows for after the load while the proxies are busy', () => {
    // A load test's captures: indexing them as they come took the cores the captures needed.
    expect(waitsOutTheLoad({ pending: 8_800, rowsPerSecond: 6_000 }, INDEXER_PACE)).toBe(true);
    // The benchmark's warm-up and measured load together (16,000) stay under the bound.
    expect(waitsOutTheLoad({ pending: 16_000, rowsPerSecond: 6_000 }, INDEXER_PACE)).toBe(true);
    expect(waitsOutTheLoad({ pending: 49_999, rowsPerSecond: 6_000 }, INDEXER_PACE)).toBe(true);
    expect(waitsOutTheLoad({ pending: 0, rowsPerSecond: 101 }, INDEXER_PACE)).toBe(true);
    // Past the bound a search would read too many rows directly: indexed, at a hundredth of the time.
    expect(waitsOutTheLoad({ pending: 50_000, rowsPerSecond: 6_000 }, INDEXER_PACE)).toBe(false);
    // Quiet, or below the busy rate: indexed as it comes.
    expect(waitsOutTheLoad({ pending: 8_800, rowsPerSecond: 100 }, INDEXER_PACE)).toBe(false);
    expect(waitsOutTheLoad({ pending: 1, rowsPerSecond: 0 }, INDEXER_PACE)).toBe(false);
    // A team's PostgreSQL tests a row directly about five times as slowly, on the server all share: a shorter backlog waits.
    expect(waitsOutTheLoad({ pending: 2_499, rowsPerSecond: 6_000 }, TEAM_INDEXER_PACE)).toBe(true);
    expect(waitsOutTheLoad({ pending: 2_500, rowsPerSecond: 6_000 }, TEAM_INDEXER_PACE)).toBe(false);
  });

  it("is self-contained, as SQLite's worker evaluates it from its source", () => {
    const copy = new Function(`return ${waitAfterBatch.toString()};`)() as typeof waitAfterBatch;
    for (const b of [after(20, 0), after(20, 101), after(300, 5_000), after(12, 6_000, 0), after(12, 50, 0), after(5, 0, 0, 0)])
      expect(copy(b, INDEXER_PACE)).toBe(waitAfterBatch(b, INDEXER_PACE));
    const waits = new Function(`return ${waitsOutTheLoad.toString()};`)() as typeof waitsOutTheLoad;
    for (const look of [
      { pending: 5, rowsPerSecond: 500 },
      { pending: 50_000, rowsPerSecond: 500 },
      { pending: 5, rowsPerSecond: 5 },
    ])
      expect(waits(look, INDEXER_PACE)).toBe(waitsOutTheLoad(look, INDEXER_PACE));
    const rate = new Function(`return ${rowsPerSecondBetween.toString()};`)() as typeof rowsPerSecondBetween;
    expect(rate({ newest: 500, at: 1_000 }, { newest: 600, at: 1_500 })).toBe(200);
  });

  it('measures the log growing from the newest id at each look', () => {
    const growth = new LogGrowth();
    expect(growth.rate(500, 1_000)).toBeNull();
    // 100 rows written in half a second.
    expect(growth.rate(600, 1_500)).toBe(200);
    // Nothing written for a second.
    expect(growth.rate(600, 2_500)).toBe(0);
  });
});
