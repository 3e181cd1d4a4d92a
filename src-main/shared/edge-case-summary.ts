// The outcome of a run of several edge cases, counted the way the conformance check counts its checks:
// the CLI's `edge-cases run` and the UI's "Run all" say the same thing about the same runs.
import type { EdgeCaseRun } from './model';

export type EdgeCaseOutcome = 'pass' | 'fail' | 'blocked' | 'not-observable' | 'not-judged';

export interface EdgeCaseSummary {
  passed: number;
  failed: number;
  blocked: number;
  /** The answer was as expected but the money rule could not be observed: never counted as passed. */
  notObservable: number;
  notJudged: number;
}

export function edgeCaseOutcome(run: EdgeCaseRun): EdgeCaseOutcome {
  if (run.outcome === 'not-observable') return 'not-observable';
  if (run.pass === null) return 'not-judged';
  if (run.pass) return 'pass';
  return run.outcome === 'blocked' ? 'blocked' : 'fail';
}

export function summarizeEdgeCases(runs: readonly EdgeCaseRun[]): EdgeCaseSummary {
  const summary: EdgeCaseSummary = { passed: 0, failed: 0, blocked: 0, notObservable: 0, notJudged: 0 };
  for (const run of runs) {
    const outcome = edgeCaseOutcome(run);
    if (outcome === 'pass') summary.passed++;
    else if (outcome === 'fail') summary.failed++;
    else if (outcome === 'blocked') summary.blocked++;
    else if (outcome === 'not-observable') summary.notObservable++;
    else summary.notJudged++;
  }
  return summary;
}

/** `3 passed, 1 failed, 0 blocked, 4 not observable, 2 not judged` */
export function edgeCaseCountsLine(s: EdgeCaseSummary): string {
  return `${s.passed} passed, ${s.failed} failed, ${s.blocked} blocked, ${s.notObservable} not observable, ${s.notJudged} not judged`;
}

/** A run succeeded when nothing failed and nothing is blocked (not judged is for a person to read). */
export function edgeCasesSucceeded(s: EdgeCaseSummary): boolean {
  return s.failed === 0 && s.blocked === 0;
}
