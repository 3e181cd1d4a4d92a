// The judge benchmark's smoke run (`npm run bench -- --quick --only judge` does the same): every shape
// judged and every request answered through the real proxy, the findings and diagnosis of each shape
// small. Never a timing: BENCHMARKS.md has the real runs.
import { describe, expect, it } from 'vitest';
import { formatJudgeResult, runJudgeBench, shapes } from '../../bench/judge';

describe('bench --only judge, quick', () => {
  it('judges every shape, answers every request, and stores little for each', { timeout: 120_000 }, async () => {
    const r = await runJudgeBench({ quick: true, log: () => {} });
    expect(r.allAnswered).toBe(true);
    expect(r.rows.map((x) => x.shape)).toEqual(shapes().map((s) => s.name));
    for (const row of r.rows) {
      expect(row.bytes).toBeGreaterThan(900_000);
      // The huge string is quoted back by a finding; every other shape stores a few KiB at most.
      if (!row.shape.startsWith('huge string')) expect(row.storedBytes, row.shape).toBeLessThan(16 * 1024);
    }
    expect(formatJudgeResult(r)).toContain('vs plain');
  });
});
