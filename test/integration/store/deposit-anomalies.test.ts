// The money of one deposit, judged on every row that names it: the flags a support person reads in the
// timeline, the detail and the ticket bundle, and "Nothing unusual" only when none holds.
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type NewExchange } from '../../../src-main/core/store/sqlite';
import type { ExchangeSummary, TimelineFlag } from '../../../src-main/shared/model';
import { inboundRow } from '../../helpers/exchanges';
import { tempDir } from '../../helpers/temp';

type Store = ReturnType<typeof openStore>;
let store: Store | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

const keys = (depositId: string, result: string | null, amount: number | null, more: Partial<NewExchange['keys']> = {}) => ({
  depositId,
  userId: 'u',
  result,
  gameId: null,
  amount,
  currency: result === 'LOSE' ? null : 'EUR',
  tournamentId: null,
  ...more,
});

function add(
  depositId: string,
  result: string | null,
  amount: number | null,
  extra: Partial<NewExchange> = {},
  more: Partial<NewExchange['keys']> = {},
): ExchangeSummary {
  const kind = result === null ? 'pay' : 'results';
  const row = store!.exchanges.insert(inboundRow({ kind, path: `/platform/${kind}`, keys: keys(depositId, result, amount, more), ...extra }));
  store!.exchanges.complete(row.id, {
    response: { status: 200, headers: [], body: Buffer.from('{}') },
    error: null,
    durationMs: 1,
    completedAt: new Date().toISOString(),
  });
  return row;
}

const flagsOf = (depositId: string): TimelineFlag[] =>
  store!.exchanges
    .timeline(depositId)
    .flags.map((f) => f.flag)
    .sort();
const replay = (sourceId: number): Partial<NewExchange> => ({ direction: 'outbound', origin: 'replay', sourceId, target: 'http://op/platform/results' });

describe('deposit anomalies', () => {
  it('a clean story has none', () => {
    store = openStore(tempDir());
    add('clean', null, 5);
    add('clean', 'WIN', 12);
    expect(flagsOf('clean')).toEqual([]);
  });

  it('four REFUNDs at three amounts, sent as replays: conflicting amounts against the pay', () => {
    store = openStore(tempDir());
    const pay = add('r', null, 5);
    const refund = add('r', 'REFUND', 5);
    add('r', 'REFUND', 7, replay(refund.id));
    add('r', 'REFUND', 9, replay(refund.id));
    add('r', 'REFUND', 9, replay(refund.id));
    const t = store.exchanges.timeline('r');
    const differs = t.flags.find((f) => f.flag === 'amount-differs')!;
    expect(differs.message).toBe(`The pay (#${pay.id}) was 5 EUR, but REFUND 7 EUR, REFUND 9 EUR were sent for it.`);
    expect(differs.exchangeIds).toHaveLength(4);
  });

  it('a WIN and a REFUND, two outcomes, results with no pay', () => {
    store = openStore(tempDir());
    add('wr', 'WIN', 10);
    add('wr', 'REFUND', 5);
    expect(flagsOf('wr')).toEqual(['conflicting-outcomes', 'credit-and-refund', 'duplicate-results', 'results-without-pay']);
  });

  it('a pay repeated with other fields, a DRAW at another amount, a credit in another currency', () => {
    store = openStore(tempDir());
    add('p', null, 5);
    add('p', null, 6, {}, { userId: 'someone-else' });
    expect(store.exchanges.timeline('p').flags.find((f) => f.flag === 'pay-changed')!.message).toContain('(userId, amount)');
    add('d', null, 5);
    add('d', 'DRAW', 4);
    expect(flagsOf('d')).toEqual(['amount-differs']);
    add('c', null, 5);
    add('c', 'WIN', 40, {}, { currency: 'USD' });
    expect(flagsOf('c')).toEqual(['amount-differs']);
  });

  it('a badly signed callback the operator accepted', () => {
    store = openStore(tempDir());
    add('b', null, 5, { signature: { verdict: 'mismatch', notes: [], diagnosis: null } });
    const flag = store.exchanges.timeline('b').flags.find((f) => f.flag === 'accepted-bad-signature')!;
    expect(flag.message).toBe('The operator accepted a callback whose signature does not match its body.');
  });

  it('a replay whose body names another deposit is filed there, linked to its source', () => {
    store = openStore(tempDir());
    const pay = add('src', null, 5);
    const moved = add('elsewhere', null, 5, replay(pay.id));
    expect(store.exchanges.timeline('src').entries.map((e) => e.id)).toEqual([pay.id]);
    expect(store.exchanges.timeline('elsewhere').entries.map((e) => [e.id, e.sourceId])).toEqual([[moved.id, pay.id]]);
  });
});
