import { describe, expect, it } from 'vitest';
import { edgeCaseCountsLine, edgeCasesSucceeded, summarizeEdgeCases } from '../../../src-main/shared/edge-case-summary';
import type { EdgeCaseRun } from '../../../src-main/shared/model';

const run = (pass: boolean | null, outcome?: EdgeCaseRun['outcome']): EdgeCaseRun => ({
  caseId: 'c',
  pass,
  ...(outcome ? { outcome } : {}),
  expected: '',
  exchangeIds: [],
  summary: '',
});

describe('summarizeEdgeCases', () => {
  it('counts passed, failed, blocked and not judged; blocked is not a failure but not a success either', () => {
    const s = summarizeEdgeCases([run(true, 'pass'), run(false, 'fail'), run(false, 'blocked'), run(null), run(null)]);
    expect(s).toEqual({ passed: 1, failed: 1, blocked: 1, notObservable: 0, notJudged: 2, inconclusive: 0, warnings: 0 });
    expect(edgeCaseCountsLine(s)).toBe('1 passed, 1 failed, 1 blocked, 0 not observable, 2 not judged');
    expect(edgeCasesSucceeded(s)).toBe(false);
    expect(edgeCasesSucceeded(summarizeEdgeCases([run(false, 'blocked')]))).toBe(false);
    expect(edgeCasesSucceeded(summarizeEdgeCases([run(true), run(null)]))).toBe(true);
  });

  it('counts inconclusive cases and warnings apart, and neither fails the run', () => {
    const s = summarizeEdgeCases([run(true, 'pass'), run(null, 'inconclusive'), run(null, 'warning'), run(null, 'warning')]);
    expect(s).toMatchObject({ passed: 1, failed: 0, notJudged: 0, inconclusive: 1, warnings: 2 });
    expect(edgeCaseCountsLine(s)).toBe('1 passed, 0 failed, 0 blocked, 0 not observable, 0 not judged, 1 inconclusive, 2 warnings');
    expect(edgeCasesSucceeded(s)).toBe(true);
  });
});
