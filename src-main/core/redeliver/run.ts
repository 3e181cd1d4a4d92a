// A redelivery run: the selected captures sent again one at a time, oldest first (so a pay goes
// before its results), paced, each recorded as an outbound exchange (origin 'redeliver') linked to its
// source. The selection is read a page at a time by id, so a run of any length holds one page; the
// skip rule is applied as each page is read, so a run stopped halfway resumes where it stopped.
import { randomBytes } from 'node:crypto';
import type { DeskEvents } from '../../shared/desk-api';
import type { RedeliveryFailure, RedeliveryProgress, RedeliveryReport, RedeliveryRequest } from '../../shared/model';
import { REDELIVERY_FAILURES_KEPT } from '../../shared/model';
import type { OutboundDeps } from '../outbound/deps';
import { capturedDraft } from '../outbound/drafts';
import { dispatchDraft } from '../outbound/dispatch';
import { resolveTarget } from '../outbound/target';
import { DeskFailure } from '../result';
import { checkRate, Pacer } from './pacer';
import { compileFilter, RedeliverySelector, refuseForeignIds } from './select';

/** Captures read from the selection at a time. */
const PAGE = 200;

export interface RedeliveryHooks {
  emit(name: 'redeliver-progress', payload: DeskEvents['redeliver-progress']): void;
  signal?: AbortSignal;
}

export function newRedeliveryRunId(): string {
  return randomBytes(8).toString('hex');
}

function signatureMode(value: unknown): 'keep' | 'resign' {
  if (value === undefined || value === 'keep' || value === 'resign') return value ?? 'keep';
  throw new DeskFailure('bad-input', `A redelivery keeps the captured signature or re-signs: "keep" or "resign", not "${String(value)}".`);
}

const is2xx = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

export async function runRedelivery(ctx: OutboundDeps, request: RedeliveryRequest, hooks: RedeliveryHooks): Promise<RedeliveryReport> {
  const runId = request.runId ?? newRedeliveryRunId();
  const signature = signatureMode(request.signature);
  let rate: number;
  try {
    rate = checkRate(request.rate);
  } catch (err) {
    throw new DeskFailure('bad-input', (err as Error).message);
  }
  const filter = request.filter ?? {};
  // One profile's captures, sent with that profile's secret and operator URL: never another's.
  if (request.profile !== undefined && filter.profile !== undefined && request.profile !== filter.profile) {
    throw new DeskFailure(
      'bad-input',
      `The captures are profile "${filter.profile}"'s but the run would send as "${request.profile}": a redelivery sends a profile's captures with that profile's secret and operator URL.`,
    );
  }
  const named = request.profile ?? filter.profile;
  if (named !== undefined) ctx.profile(named); // an unknown name is not-found
  const whose = named ?? ctx.store.profiles.activeName();
  const sendOptions = {
    ...(request.to !== undefined ? { to: request.to } : {}),
    ...(whose !== null ? { profile: whose } : {}),
    ...(request.confirmedProduction ? { confirmedProduction: true } : {}),
  };
  // Refused before anything is sent: no target, an unconfirmed production profile, nothing to re-sign with.
  const { base, profile } = resolveTarget(ctx, sendOptions);
  if (signature === 'resign' && !profile?.secret) {
    throw new DeskFailure(
      'no-secret',
      profile ? `Profile "${profile.name}" has no signing secret to re-sign with.` : 'No profile with a signing secret to re-sign with.',
    );
  }
  const compiled = compileFilter(filter, whose);
  await refuseForeignIds(ctx.log.sql, filter, whose);
  const resignInvalid = request.resignInvalid === true;
  const again = filter.again === true;
  const selector = new RedeliverySelector(ctx.log.sql);
  const upTo = await selector.maxId();
  const { count: total, skipped: alreadyDone, firstId } = await selector.count(compiled, again, upTo);

  const startedAt = new Date();
  const started = performance.now();
  const pacer = new Pacer(rate);
  const failures: RedeliveryFailure[] = [];
  let sent = 0;
  let ok = 0;
  let failed = 0;
  let skipped = alreadyDone;
  let resignRefused = 0;
  let stopped: RedeliveryReport['stopped'] = null;
  let firstExchangeId: number | null = null;
  let lastExchangeId: number | null = null;
  const progress = (extra: Pick<RedeliveryProgress, 'last' | 'report'> = {}): void =>
    hooks.emit('redeliver-progress', { runId, done: sent + (skipped - alreadyDone), total, ok, failed, ...extra });

  progress();
  let afterId = (firstId ?? upTo + 1) - 1;
  run: for (;;) {
    if (total === 0) break;
    const rows = await selector.page(compiled, again, afterId, upTo, PAGE);
    if (rows.length === 0) break;
    for (const row of rows) {
      afterId = row.id;
      if (hooks.signal?.aborted) {
        stopped = 'user';
        break run;
      }
      if (signature === 'resign' && row.verdict !== 'valid' && !resignInvalid) {
        // Re-signing would turn a callback that arrived with a foreign or broken signature into one the operator trusts.
        skipped += 1;
        resignRefused += 1;
        continue;
      }
      const { draft, truncated } = await capturedDraft(ctx, row.id);
      if (truncated) {
        // Cut at the size limit when captured: the bytes the platform sent are not all here to send.
        skipped += 1;
        continue;
      }
      try {
        await pacer.next(hooks.signal);
      } catch {
        stopped = 'user';
        break run;
      }
      const x = await dispatchDraft(ctx, draft, { ...sendOptions, signature, origin: 'redeliver', tags: [`redeliver:${runId}`] });
      sent += 1;
      firstExchangeId ??= x.id;
      lastExchangeId = x.id;
      const status = x.response?.status ?? null;
      const last = { sourceId: row.id, depositId: row.deposit_id, exchangeId: x.id, status, error: x.error };
      if (is2xx(status)) ok += 1;
      else {
        failed += 1;
        if (failures.length < REDELIVERY_FAILURES_KEPT) failures.push(last);
      }
      progress({ last });
      if (!is2xx(status) && request.stopOnFailure) {
        stopped = 'failure';
        break run;
      }
    }
  }
  const report: RedeliveryReport = {
    runId,
    at: startedAt.toISOString(),
    target: base,
    signature,
    rate,
    selected: total + alreadyDone,
    sent,
    ok,
    failed,
    skipped,
    resignRefused,
    profile: whose,
    stopped,
    durationMs: Math.round(performance.now() - started),
    firstExchangeId,
    lastExchangeId,
    failures,
  };
  progress({ report });
  return report;
}
