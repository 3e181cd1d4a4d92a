// Following the log (`wager-desk tail`): a poll of what was recorded or completed since a cursor, so a
// process other than the one capturing can follow it through the database.
import type { DeskApi } from '../../shared/desk-api';
import { DeskFailure } from '../result';
import { attempt } from './attempt';
import type { DeskContext } from './context';
import { scopedQuery } from './scope';

export function followPart(ctx: DeskContext): Pick<DeskApi, 'followExchanges'> {
  return {
    followExchanges: (cursor) =>
      attempt(() => {
        const afterId = cursor?.afterId ?? null;
        if (afterId !== null && (!Number.isInteger(afterId) || afterId < 0)) throw new DeskFailure('bad-input', 'afterId is a row id (0 or more) or null.');
        const filter = scopedQuery(ctx, cursor?.query ?? {});
        const pending = cursor?.pendingIds ?? [];
        return ctx.log.follow(filter, afterId, pending);
      }),
  };
}
