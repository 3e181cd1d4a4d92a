import type { DeskApi } from '../../shared/desk-api';
import { DeskFailure } from '../result';
import { attempt } from './attempt';
import type { DeskContext } from './context';
import { actingProfile, scopedQuery } from './scope';
import { depositOwners } from '../export/deposit-owners';

export function exchangesPart(ctx: DeskContext): Pick<DeskApi, 'listExchanges' | 'getExchange' | 'getTimeline'> {
  const { log } = ctx;
  return {
    listExchanges: (query) => attempt(() => log.list(scopedQuery(ctx, query ?? {}))),
    getExchange: (id) =>
      attempt(async () => {
        const found = await log.get(Number(id));
        if (!found) throw new DeskFailure('not-found', `No exchange with id ${id}.`);
        return found;
      }),
    getTimeline: (depositId, profile) =>
      attempt(async () => {
        if (typeof depositId !== 'string' || depositId === '') throw new DeskFailure('bad-input', 'A depositId is required.');
        // A deposit id under two profiles is two deposits: the timeline is the named (else active) profile's.
        const whose = actingProfile(ctx, profile) ?? undefined;
        const timeline = await log.timeline(depositId, whose);
        if (timeline.entries.length > 0 || whose === undefined) return timeline;
        const others = await depositOwners(log, depositId, whose);
        return others.length > 0 ? { ...timeline, otherProfiles: others } : timeline;
      }),
  };
}
