// The outcome of a run of several edge cases, counted the way the conformance check counts its checks:
// the CLI's `edge-cases run` and the UI's "Run all" say the same thing about the same runs.
import type { CheckOutcome, EdgeCaseRun } from './model';

export type EdgeCaseOutcome = 'pass' | 'fail' | 'blocked' | 'not-observable' | 'inconclusive' | 'warning' | 'not-judged';

/** How a check's outcome is marked at the start of a line (the check's report, the CLI's lines). */
export const OUTCOME_MARKS: Record<CheckOutcome, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  blocked: 'BLOCKED',
  'not-observable': 'N/A',
  inconclusive: 'INCONCLUSIVE',
  warning: 'WARN',
};

export interface EdgeCaseSummary {
  passed: number;
  failed: number;
  blocked: number;
  /** The answer was as expected but the money rule could not be observed: never counted as passed. */
  notObservable: number;
  notJudged: number;
  /** Refused, and the plain control refused too: neither passed nor failed. */
  inconclusive: number;
  /** The desk's advice not met: counted, never a failure. */
  warnings: number;
}

export function edgeCaseOutcome(run: EdgeCaseRun): EdgeCaseOutcome {
  if (run.outcome === 'not-observable' || run.outcome === 'inconclusive' || run.outcome === 'warning') return run.outcome;
  if (run.pass === null) return 'not-judged';
  if (run.pass) return 'pass';
  return run.outcome === 'blocked' ? 'blocked' : 'fail';
}

export function summarizeEdgeCases(runs: readonly EdgeCaseRun[]): EdgeCaseSummary {
  const summary: EdgeCaseSummary = { passed: 0, failed: 0, blocked: 0, notObservable: 0, notJudged: 0, inconclusive: 0, warnings: 0 };
  for (const run of runs) {
    const outcome = edgeCaseOutcome(run);
    if (outcome === 'pass') summary.passed++;
    else if (outcome === 'fail') summary.failed++;
    else if (outcome === 'blocked') summary.blocked++;
    else if (outcome === 'not-observable') summary.notObservable++;
    else if (outcome === 'inconclusive') summary.inconclusive++;
    else if (outcome === 'warning') summary.warnings++;
    else summary.notJudged++;
  }
  return summary;
}

/** `3 passed, 1 failed, 0 blocked, 4 not observable, 2 not judged`, then inconclusive and warnings where there are any. */
export function edgeCaseCountsLine(s: EdgeCaseSummary): string {
  const more = [
    ...(s.inconclusive > 0 ? [`${s.inconclusive} inconclusive`] : []),
    ...(s.warnings > 0 ? [`${s.warnings} ${s.warnings === 1 ? 'warning' : 'warnings'}`] : []),
  ];
  return `${s.passed} passed, ${s.failed} failed, ${s.blocked} blocked, ${s.notObservable} not observable, ${s.notJudged} not judged${more.map((m) => `, ${m}`).join('')}`;
}

/** A run succeeded when nothing failed and nothing is blocked (not judged is for a person to read). */
export function edgeCasesSucceeded(s: EdgeCaseSummary): boolean {
  return s.failed === 0 && s.blocked === 0;
}
