// Sends one case of the catalog (origin 'edge-case', tagged with the case and the run) and judges it
// as the conformance check does: its answer, then its money where the rule is about money.
import { DEFAULT_TEST_USER, type CheckResult, type EdgeCaseRun, type SendOptions } from '../../shared/model';
import { NO_BALANCE_EVIDENCE, type BalanceObserver } from '../balance/observer';
import type { OutboundDeps } from '../outbound/deps';
import { defaultStake } from '../protocol/amounts';
import { DeskFailure } from '../result';
import { Bodies } from './bodies';
import { findMatrixCheck, MATRIX } from './matrix';
import { MatrixRun } from './matrix/run';
import { concurrencyOf } from './run-check';
import { newRunId, RunIds, runIdPrefix } from './run-ids';
import { stepEnvFor } from './secrets';

const WORST_FIRST = ['fail', 'blocked', 'inconclusive', 'warning', 'not-observable', 'pass'] as const;

export async function runEdgeCase(
  ctx: OutboundDeps,
  caseId: string,
  options: SendOptions & { userId?: string; concurrency?: number },
  observer: BalanceObserver = NO_BALANCE_EVIDENCE,
): Promise<EdgeCaseRun> {
  const def = findMatrixCheck(caseId);
  if (!def) throw new DeskFailure('not-found', `No edge case "${caseId}". Known: ${MATRIX.map((c) => c.id).join(', ')}.`);
  const runId = newRunId();
  const env = stepEnvFor(ctx, options ?? {}, 'edge-case', [`edge-case:${def.id}`, `edge-run:${runId}`]);
  const userId = options?.userId && options.userId.trim() !== '' ? options.userId : DEFAULT_TEST_USER;
  const results: CheckResult[] = [];
  const run = new MatrixRun({
    ctx,
    env,
    observer,
    scope: {
      userId,
      ids: new RunIds(runIdPrefix(runId)),
      bodies: new Bodies(env.amounts, defaultStake(env.amounts), env.currency),
      concurrency: concurrencyOf(options?.concurrency),
    },
    onResult: (r) => results.push(r),
  });
  await run.run(def);
  const exchangeIds = [...new Set(results.flatMap((r) => r.exchangeIds))];
  const base = { caseId: def.id, expected: listedExpectation(def.id), exchangeIds, checks: results };
  const observed = results
    .map((r) => r.observed)
    .filter(Boolean)
    .join('; ');
  if (def.expectation === null) {
    return {
      ...base,
      checks: [],
      pass: null,
      summary: `Not judged (neither the spec nor the desk can tell the right answer from the status; read it). ${observed}`,
    };
  }
  const outcome = WORST_FIRST.find((o) => results.some((r) => r.outcome === o)) ?? 'pass';
  const why = results.find((r) => r.outcome === outcome)?.reason;
  switch (outcome) {
    case 'pass':
      return { ...base, pass: true, outcome, summary: `As expected. ${observed}` };
    case 'not-observable':
      return {
        ...base,
        pass: null,
        outcome,
        summary: `The answer is as expected; the money is not observable (${results.find((r) => r.howToObserve)?.howToObserve ?? 'no balance evidence'}). ${observed}`,
      };
    case 'fail':
      return { ...base, pass: false, outcome, summary: `Not as expected: ${why}. ${observed}` };
    case 'blocked':
      return { ...base, pass: false, outcome, summary: `Blocked: ${why}. ${observed}` };
    case 'inconclusive':
      return { ...base, pass: null, outcome, summary: `Inconclusive: ${why}. ${observed}` };
    case 'warning':
      return { ...base, pass: null, outcome, summary: `Against the desk's advice, not the spec's rule: ${why}. ${observed}` };
  }
}

function listedExpectation(id: string): string {
  const check = findMatrixCheck(id);
  return check ? `${check.tests} Rule (section ${check.rule.section}): ${check.rule.text}.` : '';
}
