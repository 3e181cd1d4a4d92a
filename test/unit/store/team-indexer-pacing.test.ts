// The team's background indexer takes half the time while a backlog lasts, and about a hundredth while
// the proxies write more than 100 captures a second (store/postgres/text-indexer.ts).
import { describe, expect, it } from 'vitest';
import { LogGrowth, pauseAfterBatch } from '../../../src-main/core/store/postgres/text-indexer';

describe("the team indexer's pace", () => {
  it('pauses as long as a batch took while the log is quiet, 99 times as long (2 s at most) while it is busy', () => {
    expect(pauseAfterBatch(20, 0)).toBe(20);
    expect(pauseAfterBatch(20, 100)).toBe(20);
    expect(pauseAfterBatch(20, 101)).toBe(1_980);
    expect(pauseAfterBatch(0.2, 5_000)).toBe(20);
    expect(pauseAfterBatch(300, 5_000)).toBe(2_000);
    expect(pauseAfterBatch(300, 0)).toBe(300);
    expect(pauseAfterBatch(0, 0)).toBe(1);
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
