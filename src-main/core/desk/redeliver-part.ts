import type { DeskApi } from '../../shared/desk-api';
import { newRedeliveryRunId, runRedelivery } from '../redeliver/run';
import { selectRedelivery } from '../redeliver/select';
import { DeskFailure } from '../result';
import { attempt } from './attempt';
import type { DeskContext } from './context';
import { actingProfile } from './scope';

export type RedeliverPart = Pick<DeskApi, 'selectRedelivery' | 'redeliver' | 'stopRedelivery'>;

export function redeliverPart(ctx: DeskContext): RedeliverPart {
  // Runs in progress, by id: stopRedelivery aborts one; closing the desk aborts them all.
  const running = new Map<string, AbortController>();
  ctx.onClose(() => {
    for (const run of running.values()) run.abort();
  });
  return {
    selectRedelivery: (filter, options) => attempt(() => selectRedelivery(ctx.log.sql, filter ?? {}, actingProfile(ctx, filter?.profile), options ?? {})),
    redeliver: (request) =>
      attempt(async () => {
        const runId = request?.runId ?? newRedeliveryRunId();
        if (running.has(runId)) throw new DeskFailure('bad-input', `A redelivery with run id ${runId} is already running.`);
        const controller = new AbortController();
        running.set(runId, controller);
        try {
          return await runRedelivery(ctx, { ...request, runId }, { emit: ctx.emit, signal: controller.signal });
        } finally {
          running.delete(runId);
        }
      }),
    stopRedelivery: (runId) =>
      attempt(() => {
        const run = running.get(String(runId));
        if (!run) return false;
        run.abort();
        return true;
      }),
  };
}
