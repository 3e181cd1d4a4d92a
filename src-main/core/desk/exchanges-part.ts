import type { DeskApi } from '../../shared/desk-api';
import { attempt, DeskFailure } from '../result';
import type { DeskContext } from './context';
import { actingProfile, scopedQuery } from './scope';

export function exchangesPart(ctx: DeskContext): Pick<DeskApi, 'listExchanges' | 'getExchange' | 'getTimeline'> {
  const { exchanges } = ctx.store;
  const team = ctx.teamLog;
  return {
    listExchanges: (query) =>
      attempt(() => {
        const scoped = scopedQuery(ctx, query ?? {});
        return team ? team.run(() => team.reads.list(scoped)) : exchanges.list(scoped);
      }),
    getExchange: (id) =>
      attempt(async () => {
        const found = team ? await team.run(() => team.reads.get(Number(id))) : exchanges.get(Number(id));
        if (!found) throw new DeskFailure('not-found', `No exchange with id ${id}.`);
        return found;
      }),
    getTimeline: (depositId, profile) =>
      attempt(() => {
        if (typeof depositId !== 'string' || depositId === '') throw new DeskFailure('bad-input', 'A depositId is required.');
        // A deposit id under two profiles is two deposits: the timeline is the named (else active) profile's.
        const scope = actingProfile(ctx, profile) ?? undefined;
        return team ? team.run(() => team.reads.timeline(depositId, scope)) : exchanges.timeline(depositId, scope);
      }),
  };
}
