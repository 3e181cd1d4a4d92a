// Runs the conformance check against one operator: every generated check in order, each step an
// outbound exchange (origin 'check', tagged check:<runId>), a progress event per result, a stored
// report with the run's headline. Money is judged with the balance observer the desk gives.
import type { CheckOptions, CheckOutcome, CheckReport, CheckResult } from '../../shared/model';
import type { DeskEvents } from '../../shared/desk-api';
import { NO_BALANCE_EVIDENCE, type BalanceObserver } from '../balance/observer';
import type { OutboundDeps } from '../outbound/deps';
import { callbackPath } from '../protocol/callback-path';
import { amountProblem, defaultStake } from '../protocol/amounts';
import { DeskFailure } from '../result';
import { Bodies } from './bodies';
import { JUDGED_CHECKS, validIdOfPay } from './matrix';
import { planSpending } from './matrix/plan';
import { headlineOf } from './matrix/headline';
import { explainRunRefusal } from './refused-valid';
import { MatrixRun } from './matrix/run';
import { newRunId, RunIds, runIdPrefix } from './run-ids';
import { stepEnvFor } from './secrets';

/** How many identical requests a concurrent duplicate sends when the run does not say. */
export const DEFAULT_CONCURRENCY = 5;
const MAX_CONCURRENCY = 50;

export function concurrencyOf(value: number | undefined): number {
  const n = value ?? DEFAULT_CONCURRENCY;
  if (!Number.isSafeInteger(n) || n < 2 || n > MAX_CONCURRENCY) {
    throw new DeskFailure('bad-input', `The concurrency is a whole number from 2 to ${MAX_CONCURRENCY}; got ${String(value)}.`);
  }
  return n;
}

export async function runConformanceCheck(
  ctx: OutboundDeps & { emit(name: 'check-progress', payload: DeskEvents['check-progress']): void },
  options: CheckOptions,
  observer: BalanceObserver = NO_BALANCE_EVIDENCE,
): Promise<CheckReport> {
  if (typeof options?.userId !== 'string' || options.userId.trim() === '') {
    throw new DeskFailure('bad-input', 'The check needs the userId of a test user the operator knows (with some balance).');
  }
  const runId = newRunId();
  const env = stepEnvFor(ctx, options, 'check', [`check:${runId}`]);
  const preferred = options.stake ?? defaultStake(env.amounts);
  const stakeProblem = amountProblem(preferred, env.amounts);
  if (stakeProblem !== null) throw new DeskFailure('bad-input', `The stake: ${stakeProblem}.`);
  const concurrency = concurrencyOf(options.concurrency);
  // The user's balance first: what the run may spend is planned from it, before anything is sent.
  const start = observer.available ? await observer.read(options.userId) : null;
  const has = start?.kind === 'reading' ? start.value : null;
  const plan = planSpending(
    { checks: JUDGED_CHECKS, userId: options.userId, amounts: env.amounts, currency: env.currency, concurrency },
    preferred,
    has === null ? null : Number(has),
    options.stake !== undefined,
  );
  const stake = plan.stake;
  const budget = `this run needs at most ${plan.needs}${has === null ? "; the user's balance is not known before the run" : `; the user has ${has}`}${stake !== preferred ? ` (so every pay is ${stake}, not ${preferred})` : ''}`;
  const at = new Date().toISOString();
  const total = JUDGED_CHECKS.reduce((n, c) => n + (c.money ? 2 : 1), 0);
  const checks: CheckResult[] = [];
  let notServedLine: string | null = null;
  const run = new MatrixRun({
    ctx,
    env,
    observer,
    scope: { userId: options.userId, ids: new RunIds(runIdPrefix(runId)), bodies: new Bodies(env.amounts, stake, env.currency), concurrency },
    onResult: (result) => {
      if (result.id === validIdOfPay && result.actual.status !== null && result.reason?.includes('does not serve')) {
        notServedLine = `The target does not serve ${callbackPath(env.callbackPrefix, 'pay')}: the first valid pay answered ${result.actual.status}. Wrong URL or callback prefix?`;
      }
      checks.push(result);
      ctx.emit('check-progress', {
        runKey: runId,
        index: checks.length - 1,
        total,
        result,
        ...(checks.length === 1 ? { budget } : {}),
        ...(notServedLine ? { headline: notServedLine } : {}),
      });
    },
  });
  for (const check of JUDGED_CHECKS) await run.run(check);
  // The explainer signs its probes with the profile's secret: a run with a secret of its own is not explained.
  const refusal =
    options.customSecret !== undefined
      ? null
      : await explainRunRefusal(ctx, checks, {
          ...(env.profile ? { profile: env.profile } : {}),
          ...(options.confirmedProduction ? { confirmedProduction: true } : {}),
        });

  const headline = headlineOf(JUDGED_CHECKS, checks, notServedLine);
  const count = (o: CheckOutcome) => checks.filter((c) => c.outcome === o).length;
  return ctx.log.reports.add({
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
    inconclusive: count('inconclusive'),
    warnings: count('warning'),
    moneyObserved: observer.available,
    moneySource: observer.available ? observer.howToObserve : `none: ${observer.howToObserve}`,
    budget,
    concurrency,
    ...(refusal ? { refusal } : {}),
    checks,
  });
}
