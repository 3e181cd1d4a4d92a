// Runs the conformance check against one operator: every check in order, each step an outbound
// exchange (origin 'check', tagged check:<runId>), a progress event per check, and a stored report.
import type { CheckOptions, CheckReport, CheckResult } from '../../shared/model';
import type { DeskEvents } from '../../shared/desk-api';
import type { OutboundDeps } from '../outbound/deps';
import { DeskFailure } from '../result';
import { CONFORMANCE_CHECKS, expectedText, NOT_OBSERVABLE, type CheckScope } from './conformance';
import { judge } from './judge';
import { newRunId, RunIds } from './run-ids';
import { stepEnvFor } from './secrets';
import { describeOutcome, sendStep, type StepOutcome } from './steps';


function resultOf(id: string, title: string, expected: string, outcomes: StepOutcome[], pass: boolean, reason: string | undefined): CheckResult {
  const judged = outcomes[outcomes.length - 1];
  const actual: CheckResult['actual'] = { status: judged?.status ?? null, body: judged?.body ?? null };
  if (judged?.error) actual.error = judged.error;
  // A failed check says what the steps before it answered: a refused pay explains a refused result.
  const before = outcomes.slice(0, -1).filter((o) => o.status === null || o.status >= 300);
  const context = before.map((o) => `${o.label} answered ${describeOutcome(o, 60)}`).join('; ');
  const why = pass ? undefined : [reason, context].filter(Boolean).join('; ');
  return { id, title, pass, expected, actual, exchangeIds: outcomes.map((o) => o.exchangeId), ...(why ? { reason: why } : {}) };
}

export async function runConformanceCheck(ctx: OutboundDeps & { emit(name: 'check-progress', payload: DeskEvents['check-progress']): void }, options: CheckOptions): Promise<CheckReport> {
  if (typeof options?.userId !== 'string' || options.userId.trim() === '') {
    throw new DeskFailure('bad-input', 'The check needs the userId of a test user the operator knows (with some balance).');
  }
  const runId = newRunId();
  const env = stepEnvFor(ctx, options, 'check', [`check:${runId}`]);
  const scope: CheckScope = { userId: options.userId, ids: new RunIds(`wd-check-${runId}-`), memo: {} };
  const at = new Date().toISOString();
  const total = CONFORMANCE_CHECKS.length + NOT_OBSERVABLE.length;
  const checks: CheckResult[] = [];
  const progress = (result: CheckResult): void => {
    checks.push(result);
    ctx.emit('check-progress', { runKey: runId, index: checks.length - 1, total, result });
  };

  for (const check of CONFORMANCE_CHECKS) {
    const outcomes: StepOutcome[] = [];
    for (const step of check.steps(scope)) outcomes.push(await sendStep(ctx, env, step));
    const last = outcomes[outcomes.length - 1];
    const verdict = last ? judge(check.expectation, last) : { pass: false, reason: 'nothing was sent' };
    progress(resultOf(check.id, check.title, expectedText(check), outcomes, verdict.pass, verdict.reason));
  }
  for (const item of NOT_OBSERVABLE) {
    const exchangeIds = checks.filter((c) => item.evidenceFrom.includes(c.id)).flatMap((c) => c.exchangeIds);
    progress({
      id: item.id,
      title: item.title,
      pass: null,
      expected: `${item.expected}; not observable through the interface`,
      actual: { status: null, body: null },
      exchangeIds,
    });
  }

  const passed = checks.filter((c) => c.pass === true).length;
  const failed = checks.filter((c) => c.pass === false).length;
  return ctx.store.reports.add({ runId, at, target: env.base, userId: options.userId, passed, failed, notObservable: checks.length - passed - failed, checks });
}
