// A SQLite log on which one search takes long: every row is a pay with a
// mismatched signature, and the search asks for a word every row holds (`platform`) among the `valid`
// ones. A common verdict has no index entries, so the search walks every match and keeps none.
import type { Desk } from '../../src-main/core/desk';
import { storeOf } from '../../src-main/core/desk/seams';
import type { NewExchange } from '../../src-main/core/capture/new-exchange';
import type { ExchangeQuery } from '../../src-main/shared/model';
import { inboundRow } from './exchanges';

export const SLOW_SEARCH: ExchangeQuery = { search: 'platform', verdict: 'valid', allProfiles: true };

/** Row `i` of such a log: a pay whose signature did not match; `memo`: characters of filler in its body. */
export function slowSearchRow(i: number, memo = 200): NewExchange {
  const body = Buffer.from(`{"depositId":"fill-${i}","userId":"u-${i % 97}","amount":5,"currency":"USD","memo":"${'x'.repeat(memo)}"}`);
  return inboundRow({
    body,
    size: body.length,
    signature: { verdict: 'mismatch', notes: [], diagnosis: null },
    keys: { depositId: `fill-${i}`, userId: `u-${i % 97}`, result: null, gameId: null, amount: 5, currency: 'USD', tournamentId: null },
  });
}

/**
 * Writes `rows` such rows in one transaction (seconds for a hundred thousand); `memo`: characters of filler
 * in each body; `profile`: whose rows they are (default: unassigned).
 */
export function fillForSlowSearch(desk: Desk, rows: number, memo = 200, profile: string | null = null): void {
  const store = storeOf(desk);
  store.immediate(() => {
    for (let i = 0; i < rows; i++) store.exchanges.record({ ...slowSearchRow(i, memo), profile });
  });
}
