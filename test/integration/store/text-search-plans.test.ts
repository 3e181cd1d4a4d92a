// Both plans of a text search (the index first, or the filters' rows first with their text tested)
// return the same pages as a plain test of every row's text, under every filter set, across the
// boundary between the rows the index holds, the rows listed without their answer, and the rows not
// indexed yet; pages follow each other newest first with nothing missed or repeated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionOf, openStore, type Store } from '../../../src-main/core/store/sqlite';
import { IN_FLIGHT_WAIT_MS } from '../../../src-main/core/store/rows/in-flight';
import { TextIndex } from '../../../src-main/core/store/sqlite/text-index';
import { DIRECT_TEXT_MATCH } from '../../../src-main/core/store/sqlite/text-match';
import { TextSearch, pinnedTo, textMatchParams } from '../../../src-main/core/store/sqlite/text-search';
import type { ExchangeSummary, Verdict } from '../../../src-main/shared/model';
import { inboundRow } from '../../helpers/exchanges';
import { tempDirForSuite } from '../../helpers/temp';

const ROWS = 500;
const WORDS = ['Lapwing', 'Curlew', 'Redshank'];
const VERDICTS: Verdict[] = ['valid', 'valid', 'valid', 'mismatch', 'missing'];

interface Filter {
  kind?: 'pay' | 'results';
  verdict?: Verdict;
  userId?: string;
}

const FILTERS: Filter[] = [
  {},
  { kind: 'pay' },
  { verdict: 'missing' },
  { verdict: 'missing', kind: 'pay' },
  { userId: 'user-3' },
  { userId: 'user-5', kind: 'results' },
];
const SEARCHES = ['lapwing', 'CURLEW', 'redshank 1', '"memo"', 'late answer', '/platform/pay', 'no such text'];

function whereOf(f: Filter): { where: string[]; params: Record<string, unknown> } {
  const where = ['direction = @direction'];
  const params: Record<string, unknown> = { direction: 'inbound' };
  if (f.kind) (where.push('kind = @kind'), (params.kind = f.kind));
  if (f.verdict) (where.push('verdict = @verdict'), (params.verdict = f.verdict));
  if (f.userId) (where.push('user_id = @user'), (params.user = f.userId));
  return { where, params };
}

/** Every page of one plan, following nextBeforeId. */
function pages(run: (before: number) => ExchangeSummary[], limit: number): number[][] {
  const out: number[][] = [];
  let before = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const rows = run(before);
    const items = rows.slice(0, limit);
    out.push(items.map((r) => r.id));
    if (rows.length <= limit) return out;
    before = items[limit - 1]!.id;
  }
}

describe('the two plans of a text search', () => {
  let store: Store;
  let remove: () => void;

  beforeAll(() => {
    const suite = tempDirForSuite();
    remove = suite.remove;
    store = openStore(suite.dir);
    const old = new Date(Date.now() - IN_FLIGHT_WAIT_MS - 60_000).toISOString();
    const made: number[] = [];
    store.immediate(() => {
      for (let i = 0; i < ROWS; i++) {
        const row = inboundRow({
          kind: i % 3 === 0 ? 'results' : 'pay',
          at: i % 97 === 5 ? old : new Date().toISOString(),
          signature: { verdict: VERDICTS[i % VERDICTS.length]!, notes: [], diagnosis: null },
          body: Buffer.from(`{"memo":"${WORDS[i % WORDS.length]} ${i}"}`),
          keys: { depositId: `dep-${i}`, userId: `user-${i % 7}`, result: null, gameId: null, amount: 5, currency: 'USD', tournamentId: null },
        });
        made.push(store.exchanges.insert(row).id);
      }
    });
    // Most rows answered; the old ones in flight get indexed without their answer.
    for (const [i, id] of made.entries()) {
      if (i % 97 !== 5)
        store.exchanges.complete(id, {
          response: { status: 200, headers: [], body: Buffer.from('{"status":"ok"}') },
          error: null,
          durationMs: 1,
          completedAt: '',
        });
    }
    // The first 330 rows indexed; then the listed rows get their answers (read from the row, not the index).
    const index = new TextIndex(connectionOf(store));
    let indexed = 0;
    while (indexed < 330) indexed += index.batch(Math.min(100, 330 - indexed)).indexed;
    for (const [i, id] of made.entries()) {
      if (i % 97 === 5)
        store.exchanges.complete(id, { response: { status: 504, headers: [], body: Buffer.from('late answer') }, error: null, durationMs: 1, completedAt: '' });
    }
  });

  afterAll(() => {
    store.close();
    remove();
  });

  it('holds rows of all three kinds: indexed, listed without their answer, not indexed', () => {
    const db = connectionOf(store);
    expect(db.prepare('SELECT indexed_upto FROM exchange_text_state').pluck().get()).toBe(330);
    expect((db.prepare('SELECT count(*) FROM exchange_text_unanswered').pluck().get() as number) > 0).toBe(true);
  });

  for (const filter of FILTERS) {
    for (const search of SEARCHES) {
      it(`${JSON.stringify(filter)} + "${search}": both plans page as the plain test of every row`, () => {
        const db = connectionOf(store);
        const text = new TextSearch(db);
        const { where, params } = whereOf(filter);
        const bound = { ...params, ...textMatchParams(search) };
        const truth = db
          .prepare(`SELECT id FROM exchanges AS new WHERE ${[...where, DIRECT_TEXT_MATCH].join(' AND ')} ORDER BY id DESC`)
          .pluck()
          .all(bound) as number[];
        for (const limit of [2, 50]) {
          const byIndex = pages((before) => text.indexFirst(where, bound, before, limit), limit);
          expect(byIndex.flat()).toEqual(truth);
          // Started from each indexed filter's index in turn, and from none.
          for (const start of [null, ...where.filter((w) => /^(kind|verdict|user_id) = /.test(w))]) {
            const pinned = start === null ? where : pinnedTo(start, where);
            expect(pages((before) => text.filterFirst(pinned, bound, before, limit), limit)).toEqual(byIndex);
          }
          expect(byIndex.every((p, n) => p.length === limit || n === byIndex.length - 1)).toBe(true);
        }
        // The list itself (whichever plan it picks) pages the same.
        const listed = pages((before) => {
          const page = store.exchanges.list({ ...filter, search, limit: 7, ...(before < Number.MAX_SAFE_INTEGER ? { beforeId: before } : {}) });
          return page.nextBeforeId === null ? page.items : [...page.items, page.items[0]!];
        }, 7);
        expect(listed.flat()).toEqual(truth);
      });
    }
  }

  it('starts from the filters for a common word with rare filters, from the index for a rare word', () => {
    const text = new TextSearch(connectionOf(store));
    const rare = whereOf({ verdict: 'missing', userId: 'user-3' });
    // The rarer filter is where the walk starts: the user (a seventh of the rows), not the verdict (a fifth).
    expect(text.plan(rare.where, { ...rare.params, ...textMatchParams('/platform/pay') }, Number.MAX_SAFE_INTEGER)).toEqual({
      kind: 'filter-first',
      start: 'user_id = @user',
    });
    expect(text.plan(rare.where, { ...rare.params, ...textMatchParams('Curlew 101') }, Number.MAX_SAFE_INTEGER)).toEqual({ kind: 'index-first' });
    const none = whereOf({});
    expect(text.plan(none.where, { ...none.params, ...textMatchParams('/platform/pay') }, Number.MAX_SAFE_INTEGER)).toEqual({ kind: 'index-first' });
  });
});
