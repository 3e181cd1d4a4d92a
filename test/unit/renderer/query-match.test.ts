import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExchangeSummary } from '../../../src-main/shared/model';
import { indexOfId, matchesQuery, mergeExchange, mergeExchanges } from '../../../src-renderer/store/query-match';

function row(id: number, fields: Partial<ExchangeSummary> = {}): ExchangeSummary {
  return {
    id,
    direction: 'inbound',
    kind: 'pay',
    origin: 'proxy',
    at: '2026-01-01T00:00:00.000Z',
    method: 'POST',
    path: '/platform/pay',
    target: null,
    signature: { verdict: 'valid' },
    response: null,
    error: null,
    answeredBy: null,
    deskCause: null,
    durationMs: null,
    sourceId: null,
    truncated: false,
    errorCount: 0,
    depositId: `dep-${id}`,
    userId: 'user-1',
    result: null,
    gameId: null,
    amount: 5,
    currency: 'EUR',
    tournamentId: null,
    profile: null,
    ...fields,
  };
}

describe('live rows in the capture list', () => {
  it('matches the filters the database applies', () => {
    expect(matchesQuery(row(1), {})).toBe(true);
    expect(matchesQuery(row(1, { direction: 'outbound' }), {})).toBe(false);
    expect(matchesQuery(row(1, { direction: 'outbound' }), { direction: 'all' })).toBe(true);
    expect(matchesQuery(row(1), { verdict: 'missing' })).toBe(false);
    expect(matchesQuery(row(1, { kind: 'results', result: 'WIN' }), { kind: 'results', result: 'WIN' })).toBe(true);
    expect(matchesQuery(row(12), { search: 'dep-1' })).toBe(true);
    expect(matchesQuery(row(12), { search: 'user-' })).toBe(true);
    // Three characters or more: any part of the fields a summary carries, case aside.
    expect(matchesQuery(row(12), { search: 'ep-1' })).toBe(true);
    expect(matchesQuery(row(12), { search: 'EP-12' })).toBe(true);
    expect(matchesQuery(row(12), { search: 'ep-13' })).toBe(false);
    // Shorter: a depositId or userId prefix.
    expect(matchesQuery(row(12), { search: 'de' })).toBe(true);
    expect(matchesQuery(row(12), { search: 'ep' })).toBe(false);
  });

  it('puts a new row on top, replaces an updated one, and leaves out one the filters exclude', () => {
    const list = [row(5), row(3), row(2)];
    expect(mergeExchange(list, row(6), {}, false).map((x) => x.id)).toEqual([6, 5, 3, 2]);
    const updated = mergeExchange(list, row(3, { response: { status: 200 } }), {}, false);
    expect(updated.map((x) => x.id)).toEqual([5, 3, 2]);
    expect(updated[1]!.response).toEqual({ status: 200 });
    expect(mergeExchange(list, row(7, { signature: { verdict: 'missing' } }), { verdict: 'valid' }, false)).toBe(list);
    // A listed row that no longer matches (verified again, say) leaves the filtered list.
    expect(mergeExchange(list, row(3, { signature: { verdict: 'missing' } }), { verdict: 'valid' }, false).map((x) => x.id)).toEqual([5, 2]);
  });

  it('keeps the list sorted newest first whatever order rows arrive in', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 60 }), (ids) => {
        let list: readonly ExchangeSummary[] = [];
        for (const id of ids) list = mergeExchange(list, row(id), {}, true);
        const got = list.map((x) => x.id);
        expect(got).toEqual([...ids].sort((a, b) => b - a));
        for (const id of ids) expect(indexOfId(list, id)).toBe(got.indexOf(id));
        expect(indexOfId(list, 9999)).toBe(-1);
      }),
    );
  });

  it('folds a burst of events in one pass exactly as one event at a time would', () => {
    // Events: a row id, whether it is valid (the filter may exclude it) and whether it carries a response.
    const event = fc.record({ id: fc.integer({ min: 1, max: 40 }), valid: fc.boolean(), answered: fc.boolean() });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 15 }),
        fc.array(event, { maxLength: 30 }),
        fc.constantFrom({}, { verdict: 'valid' as const }),
        fc.boolean(),
        (listed, events, q, complete) => {
          const list = listed.sort((a, b) => b - a).map((id) => row(id));
          const xs = events.map((e) => row(e.id, { signature: { verdict: e.valid ? 'valid' : 'missing' }, response: e.answered ? { status: 200 } : null }));
          let oneByOne: readonly ExchangeSummary[] = list;
          for (const x of xs) oneByOne = mergeExchange(oneByOne, x, q, complete);
          const burst = mergeExchanges(list, xs, q, complete);
          expect(burst).toEqual(oneByOne);
          // Nothing changed: the very same array, so the store does not re-render.
          if (oneByOne === list) expect(burst).toBe(list);
        },
      ),
      { numRuns: 500 },
    );
  });
});
