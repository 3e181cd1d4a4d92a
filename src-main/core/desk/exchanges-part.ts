import type { DeskApi } from '../../shared/desk-api';
import { attempt, DeskFailure } from '../result';
import type { DeskContext } from './context';

export function exchangesPart(ctx: DeskContext): Pick<DeskApi, 'listExchanges' | 'getExchange' | 'getTimeline'> {
  const { exchanges } = ctx.store;
  return {
    listExchanges: (query) => attempt(() => exchanges.list(query ?? {})),
    getExchange: (id) =>
      attempt(() => {
        const found = exchanges.get(Number(id));
        if (!found) throw new DeskFailure('not-found', `No exchange with id ${id}.`);
        return found;
      }),
    getTimeline: (depositId) =>
      attempt(() => {
        if (typeof depositId !== 'string' || depositId === '') throw new DeskFailure('bad-input', 'A depositId is required.');
        return exchanges.timeline(depositId);
      }),
  };
}
