// The shortcuts ExchangeStore takes for speed (bench/store.ts, BENCHMARKS.md) must not change a single
// answer: a text search (three characters or more) through the trigram index, walked newest first, gives
// exactly the page a plain substring filter over every row's text gives; a short search (an id prefix) answered two ways (the prefix indexes for a narrow prefix, a newest-first walk
// for a broad one, with a window and a cost guess in between; see walkBroadSearch) gives exactly the page
// a plain filter over every row gives; the running counts match a full count, also after rows were
// deleted elsewhere; insert's summary (built, not read back) equals the row as stored. 25,000 rows: more
// than the walk's window, so every branch runs.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionOf, DATABASE_FILE, openStore, type Db, type Store } from '../../../src-main/core/store/sqlite';
import type { ExchangeQuery, Verdict } from '../../../src-main/shared/model';
import { inboundRow } from '../../helpers/exchanges';
import { tempDir, tempDirForSuite } from '../../helpers/temp';

const ROWS = 25_000;
const VERDICTS: Verdict[] = ['valid', 'valid', 'valid', 'valid', 'mismatch', 'valid', 'missing'];

interface Plain {
  id: number;
  direction: 'inbound' | 'outbound';
  kind: 'pay' | 'results';
  verdict: Verdict;
  depositId: string;
  userId: string;
  result: string | null;
}

let suite: { dir: string; remove: () => void };
let store: Store;
const rows: Plain[] = [];

/** A small deterministic generator, so a failure reproduces. */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 4294967296;
}

beforeAll(() => {
  suite = tempDirForSuite();
  store = openStore(suite.dir);
  const next = lcg(9);
  const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join('');
  connectionOf(store).transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      // Old users appear only in the first fifth of the log: broad prefixes with clustered matches.
      const userId = i < ROWS / 5 && next() < 0.5 ? `old-${Math.floor(next() * 50)}` : `user-${Math.floor(next() * 300)}`;
      const kind = next() < 0.5 ? 'pay' : 'results';
      const plain: Omit<Plain, 'id'> = {
        direction: next() < 0.98 ? 'inbound' : 'outbound',
        kind,
        verdict: VERDICTS[Math.floor(next() * VERDICTS.length)]!,
        depositId: `${hex(8)}-${hex(4)}`,
        userId,
        result: kind === 'results' ? (['WIN', 'LOSE', 'DRAW', 'REFUND'][Math.floor(next() * 4)] ?? null) : null,
      };
      const { id } = store.exchanges.insert(
        inboundRow({
          direction: plain.direction,
          kind: plain.kind,
          signature: { verdict: plain.verdict, notes: [], diagnosis: null },
          keys: { depositId: plain.depositId, userId: plain.userId, result: plain.result, gameId: null, amount: 5, currency: 'USD', tournamentId: null },
        }),
      );
      rows.push({ id, ...plain });
    }
  })();
}, 60_000);

afterAll(() => {
  store?.close();
  suite?.remove();
});

/** The text a row of this suite stores (inboundRow's request: no answer), as the index sees it. */
const textOf = (r: Plain): string => `POST /platform/pay\ncontent-type: application/json\n{}\n${r.depositId} ${r.userId}`;

function matchesSearch(r: Plain, search: string): boolean {
  if ([...search].length >= 3) return textOf(r).toLowerCase().includes(search.toLowerCase());
  return r.depositId.startsWith(search) || r.userId.startsWith(search);
}

function expected(q: ExchangeQuery & { search: string; limit: number }): { ids: number[]; nextBeforeId: number | null } {
  const direction = q.direction ?? 'inbound';
  const matches = rows
    .filter(
      (r) =>
        (direction === 'all' || r.direction === direction) &&
        (q.kind === undefined || r.kind === q.kind) &&
        (q.verdict === undefined || r.verdict === q.verdict) &&
        (q.result === undefined || r.result === q.result) &&
        (q.beforeId === undefined || r.id < q.beforeId) &&
        matchesSearch(r, q.search),
    )
    .sort((a, b) => b.id - a.id);
  const ids = matches.slice(0, q.limit).map((r) => r.id);
  return { ids, nextBeforeId: matches.length > q.limit ? ids[ids.length - 1]! : null };
}

describe('search: text anywhere, or a short id prefix, narrow or broad', () => {
  const prefixes = ['u', 'us', 'o', 'ol', 'a', 'ab', '0', 'f3', 'zz', 'user-', 'user-1', 'USER-12', 'old-', 'ld-3', '-12', 'pay', 'nothing here', 'ser-2"'];
  const filters: ExchangeQuery[] = [
    {},
    { verdict: 'mismatch' },
    { verdict: 'missing', kind: 'pay' },
    { direction: 'all' },
    { direction: 'outbound' },
    // About half a page in the newest window for a broad short prefix: the walk goes on past the window.
    { direction: 'outbound', kind: 'pay' },
    { kind: 'results', result: 'DRAW' },
    { beforeId: 12_000 },
    { beforeId: 3_000 },
    { beforeId: 24_000, verdict: 'missing' },
  ];

  it('returns exactly the page a plain filter over every row gives, by every way', () => {
    // Which statements list() prepares tells which ways it took.
    const prepared: string[] = [];
    const original = connectionOf(store).prepare.bind(connectionOf(store));
    (connectionOf(store) as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => (prepared.push(sql), original(sql));
    let compared = 0;
    for (const search of prefixes) {
      for (const f of filters) {
        for (const limit of [1, 50, 200]) {
          const q = { ...f, search, limit };
          const page = store.exchanges.list(q);
          const want = expected(q);
          expect({ q, ids: page.items.map((x) => x.id), next: page.nextBeforeId }).toEqual({ q, ids: want.ids, next: want.nextBeforeId });
          compared++;
        }
      }
    }
    delete (connectionOf(store) as unknown as { prepare?: unknown }).prepare;
    expect(compared).toBe(prefixes.length * filters.length * 3);
    const walks = prepared.filter((sql) => sql.includes('+deposit_id'));
    expect(prepared.some((sql) => sql.includes('id IN (SELECT id FROM exchanges WHERE deposit_id'))).toBe(true);
    expect(walks.some((sql) => sql.includes('id >= @floor'))).toBe(true);
    expect(walks.some((sql) => !sql.includes('id >= @floor'))).toBe(true);
    expect(prepared.some((sql) => sql.includes('exchange_text MATCH'))).toBe(true);
  });

  it('pages through a broad prefix to the end without gaps or repeats', () => {
    const seen: number[] = [];
    let beforeId: number | undefined;
    for (let guard = 0; guard < 1_000; guard++) {
      const page = store.exchanges.list({ search: 'user-', limit: 1000, ...(beforeId !== undefined ? { beforeId } : {}) });
      seen.push(...page.items.map((x) => x.id));
      if (page.nextBeforeId === null) break;
      beforeId = page.nextBeforeId;
    }
    const want = rows.filter((r) => r.direction === 'inbound' && matchesSearch(r, 'user-')).map((r) => r.id);
    expect(seen).toEqual(want.sort((a, b) => b - a));
  });
});

describe('running counts', () => {
  const full = (db: Db): { inbound: number; outbound: number } => {
    const out = { inbound: 0, outbound: 0 };
    for (const r of db.prepare('SELECT direction, count(*) AS n FROM exchanges GROUP BY direction').all() as Array<{
      direction: 'inbound' | 'outbound';
      n: number;
    }>)
      out[r.direction] = r.n;
    return out;
  };

  it('follow rows as they arrive', () => {
    expect(store.exchanges.counts()).toEqual(full(connectionOf(store)));
    const { id } = store.exchanges.insert(inboundRow({ direction: 'outbound', origin: 'replay' }));
    rows.push({ id, direction: 'outbound', kind: 'pay', verdict: 'valid', depositId: 'd1', userId: 'u1', result: null });
    store.exchanges.insert(inboundRow());
    expect(store.exchanges.counts()).toEqual(full(connectionOf(store)));
  });

  it('are counted again after another connection deleted rows (a prune in another process)', () => {
    const dir = tempDir();
    const mine = openStore(dir);
    for (let i = 0; i < 30; i++) mine.exchanges.insert(inboundRow({ direction: i % 3 === 0 ? 'outbound' : 'inbound' }));
    expect(mine.exchanges.counts()).toEqual({ inbound: 20, outbound: 10 });
    const other = new Database(join(dir, DATABASE_FILE));
    other.prepare('DELETE FROM exchanges WHERE id <= 9').run();
    other.close();
    expect(mine.exchanges.counts()).toEqual(full(connectionOf(mine)));
    expect(mine.exchanges.counts()).toEqual({ inbound: 14, outbound: 7 });
    // Deleted through this very connection: recount() says so.
    connectionOf(mine).prepare('DELETE FROM exchanges WHERE id > 25').run();
    mine.exchanges.recount();
    expect(mine.exchanges.counts()).toEqual(full(connectionOf(mine)));
    mine.close();
  });
});

describe("insert's summary", () => {
  it('equals the row as stored and read back, odd values included', () => {
    const dir = tempDir();
    const mine = openStore(dir);
    const odd = [
      inboundRow(),
      inboundRow({
        keys: { depositId: 'd\ud800x', userId: '\udfffu', result: 'WIN', gameId: 'g', amount: Number.NaN, currency: 'EUR', tournamentId: 't' },
        truncated: true,
        findings: [
          { level: 'error', path: '$.amount', message: 'bad' },
          { level: 'warning', path: '$', message: 'meh' },
        ],
        signature: null,
      }),
      inboundRow({
        direction: 'outbound',
        origin: 'replay',
        target: 'http://127.0.0.1:1/x',
        sourceId: 1,
        keys: { depositId: null, userId: null, result: null, gameId: null, amount: 1e-7, currency: null, tournamentId: null },
      }),
      inboundRow({
        keys: { depositId: 'd', userId: 'u', result: null, gameId: null, amount: 12345678901234, currency: 'USD', tournamentId: null },
        at: '2026-01-01T00:00:00.000Z',
      }),
      inboundRow({ keys: { depositId: 'dé€😀', userId: 'ü', result: 'LOSE', gameId: null, amount: -0.5, currency: 'USD', tournamentId: null }, method: 'PUT' }),
    ];
    for (const row of odd) {
      const emitted = mine.exchanges.insert(row);
      expect(emitted).toEqual(mine.exchanges.summary(emitted.id));
    }
    // complete() announces the finished row without reading it back: still exactly what is stored,
    // also after findings were added in between, and for an error text with a lone surrogate.
    const completions = [
      { response: { status: 201, headers: [], body: Buffer.from('x') }, error: null, durationMs: 1.25, completedAt: 'now' },
      { response: null, error: 'upstream gone \ud800', durationMs: Number.NaN, completedAt: 'now' },
      {
        response: { status: 502, headers: [['a', 'b']] as Array<[string, string]>, body: Buffer.alloc(0) },
        error: 'bad gateway',
        durationMs: 0,
        completedAt: 'now',
      },
    ];
    mine.exchanges.addFindings(1, [{ level: 'error', path: '$', message: 'late' }]);
    for (const [i, c] of completions.entries()) {
      const announced = mine.exchanges.complete(i + 1, c);
      expect(announced).toEqual(mine.exchanges.summary(i + 1));
    }
    expect(mine.exchanges.summary(1)!.errorCount).toBe(1);
    expect(() => mine.exchanges.complete(999, completions[0]!)).toThrow(/does not exist/);
    // The lone surrogate did not survive storage; the announced summary says what was stored.
    expect(mine.exchanges.summary(2)!.depositId).not.toBe('d\ud800x');
    mine.close();
  });
});
