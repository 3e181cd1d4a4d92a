// Runs the conformance check against one operator: every check in order, each step an outbound
// exchange (origin 'check', tagged check:<runId>), a progress event per check, and a stored report.
import type { CheckOptions, CheckOutcome, CheckReport, CheckResult } from '../../shared/model';
import type { DeskEvents } from '../../shared/desk-api';
import type { OutboundDeps } from '../outbound/deps';
import { callbackPath } from '../protocol/callback-path';
import { amountProblem, defaultStake } from '../protocol/amounts';
import { DeskFailure } from '../result';
import { Bodies } from './bodies';
import { CONFORMANCE_CHECKS, expectedText, NOT_OBSERVABLE, type CheckScope, type ConformanceCheck } from './conformance';
import { isNotServed, judgeSteps, type StepsVerdict } from './judge';
import { newRunId, RunIds, runIdPrefix } from './run-ids';
import { stepEnvFor } from './secrets';
import { describeOutcome, sendStep, type CaseStep, type StepOutcome } from './steps';

function resultOf(check: ConformanceCheck, outcomes: StepOutcome[], verdict: StepsVerdict): CheckResult {
  const judged = verdict.outcome === 'fail' || verdict.outcome === 'blocked' ? verdict.judged : outcomes[outcomes.length - 1];
  const actual: CheckResult['actual'] = { status: judged?.status ?? null, body: judged?.body ?? null };
  if (judged?.error) actual.error = judged.error;
  const outcome: CheckOutcome = verdict.outcome === 'pass' ? 'pass' : verdict.outcome === 'blocked' ? 'blocked' : 'fail';
  const base = {
    id: check.id,
    title: check.title,
    pass: outcome === 'pass',
    outcome,
    expected: expectedText(check),
    actual,
    exchangeIds: outcomes.map((o) => o.exchangeId),
  };
  if (verdict.outcome === 'blocked') return { ...base, reason: verdict.reason, blockedBy: verdict.blockedBy };
  if (verdict.outcome === 'pass') return base;
  // A failed check says what the steps before it answered: a refused pay explains a refused result.
  const before = outcomes.slice(0, -1).filter((o) => o.status === null || o.status >= 300);
  const context = before.map((o) => `${o.label} answered ${describeOutcome(o, 60)}`).join('; ');
  const reason = verdict.outcome === 'fail' ? verdict.reason : 'nothing was judged';
  return { ...base, reason: [reason, context].filter(Boolean).join('; ') };
}

/** Blocked by an earlier check of the run that did not pass. */
function blockedByCheck(check: ConformanceCheck, done: readonly CheckResult[]): { reason: string; blockedBy: { step: string; answer: string } } | null {
  for (const id of check.dependsOn ?? []) {
    const dep = done.find((c) => c.id === id);
    if (!dep || dep.outcome === 'pass') continue;
    const answer =
      dep.actual.status === null
        ? `no answer (${dep.actual.error ?? 'unknown error'})`
        : describeOutcome({ status: dep.actual.status, body: dep.actual.body, error: null }, 80);
    return { reason: `depends on check ${id}, which did not pass (${dep.outcome}): ${dep.reason ?? answer}`, blockedBy: { step: id, answer } };
  }
  return null;
}

export async function runConformanceCheck(
  ctx: OutboundDeps & { emit(name: 'check-progress', payload: DeskEvents['check-progress']): void },
  options: CheckOptions,
): Promise<CheckReport> {
  if (typeof options?.userId !== 'string' || options.userId.trim() === '') {
    throw new DeskFailure('bad-input', 'The check needs the userId of a test user the operator knows (with some balance).');
  }
  const runId = newRunId();
  const env = stepEnvFor(ctx, options, 'check', [`check:${runId}`]);
  const stake = options.stake ?? defaultStake(env.amounts);
  const stakeProblem = amountProblem(stake, env.amounts);
  if (stakeProblem !== null) throw new DeskFailure('bad-input', `The stake: ${stakeProblem}.`);
  const scope: CheckScope = { userId: options.userId, ids: new RunIds(runIdPrefix(runId)), bodies: new Bodies(env.amounts, stake, env.currency), memo: {} };
  const at = new Date().toISOString();
  const total = CONFORMANCE_CHECKS.length + NOT_OBSERVABLE.length;
  const checks: CheckResult[] = [];
  let headline: string | undefined;
  const progress = (result: CheckResult): void => {
    checks.push(result);
    ctx.emit('check-progress', { runKey: runId, index: checks.length - 1, total, result, ...(headline ? { headline } : {}) });
  };

  for (const check of CONFORMANCE_CHECKS) {
    const steps: CaseStep[] = check.steps(scope).map((step, i, all) => (i === all.length - 1 ? { ...step, expect: check.expectation } : step));
    const outcomes: StepOutcome[] = [];
    // Every step is sent even when the check is blocked: the answers are the evidence of why.
    for (const step of steps) outcomes.push(await sendStep(ctx, env, step));
    if (check.id === 'pay-accepted' && outcomes[0] && isNotServed(outcomes[0].status)) {
      headline = `The target does not serve ${callbackPath(env.callbackPrefix, 'pay')}: the first valid pay answered ${outcomes[0].status}. Wrong URL or callback prefix?`;
    }
    const dependency = blockedByCheck(check, checks);
    const verdict: StepsVerdict = dependency ? { outcome: 'blocked', ...dependency, judged: outcomes[outcomes.length - 1]! } : judgeSteps(steps, outcomes);
    progress(resultOf(check, outcomes, verdict));
  }
  for (const item of NOT_OBSERVABLE) {
    const exchangeIds = checks.filter((c) => item.evidenceFrom.includes(c.id)).flatMap((c) => c.exchangeIds);
    progress({
      id: item.id,
      title: item.title,
      pass: null,
      outcome: 'not-observable',
      expected: `${item.expected}; not observable through the interface`,
      actual: { status: null, body: null },
      exchangeIds,
    });
  }

  const count = (o: CheckOutcome) => checks.filter((c) => c.outcome === o).length;
  return ctx.store.reports.add({
    runId,
    at,
    target: env.base,
    callbackPrefix: env.callbackPrefix,
    userId: options.userId,
    ...(headline ? { headline } : {}),
    passed: count('pass'),
    failed: count('fail'),
    blocked: count('blocked'),
    notObservable: count('not-observable'),
    checks,
  });
}
