// A text search finds every row, indexed or not: the index for the rows the indexer has reached, the
// rows' own text for the rest; deletes leave the index by trigger.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE, connectionOf, openStore } from '../../../src-main/core/store/sqlite';
import { MIGRATIONS, migrate } from '../../../src-main/core/store/sqlite/migrations';
import { TextIndex } from '../../../src-main/core/store/sqlite/text-index';
import { inboundRow } from '../../helpers/exchanges';
import { tempDir } from '../../helpers/temp';

const ids = (page: { items: ReadonlyArray<{ id: number }> }): number[] => page.items.map((x) => x.id);
const state = (store: ReturnType<typeof openStore>): number =>
  connectionOf(store).prepare('SELECT indexed_upto FROM exchange_text_state').pluck().get() as number;
const documents = (store: ReturnType<typeof openStore>): number => connectionOf(store).prepare('SELECT count(*) FROM exchange_text').pluck().get() as number;
const keys = (depositId: string) => ({ depositId, userId: 'u-7', result: null, gameId: null, amount: 5, currency: 'USD', tournamentId: null });

describe('the text index', () => {
  it('finds a row by its request, then by its answer, forgets an answer replaced, and a row deleted', () => {
    const store = openStore(tempDir());
    const a = store.exchanges.insert(inboundRow({ body: Buffer.from('{"note":"Blackjack table seven"}'), keys: keys('dep-10023') }));
    const b = store.exchanges.insert(inboundRow({ path: '/acme/pay', query: 'trace=Zebra', headers: [['X-Request-Id', 'req-Quokka-1']], keys: keys('dep-2') }));
    expect(ids(store.exchanges.list({ search: 'blackJACK TABLE' }))).toEqual([a.id]);
    expect(ids(store.exchanges.list({ search: '1002' }))).toEqual([a.id]);
    expect(ids(store.exchanges.list({ search: 'x-request-id: req-quokka' }))).toEqual([b.id]);
    expect(ids(store.exchanges.list({ search: '/acme/pay?trace=zeb' }))).toEqual([b.id]);
    expect(ids(store.exchanges.list({ search: 'u-7' }))).toEqual([b.id, a.id]);

    store.exchanges.complete(a.id, {
      response: { status: 409, headers: [['X-Answer', 'Pelican']], body: Buffer.from('{"error":"duplicate deposit"}') },
      error: null,
      durationMs: 1,
      completedAt: new Date().toISOString(),
    });
    expect(ids(store.exchanges.list({ search: 'duplicate deposit' }))).toEqual([a.id]);
    expect(ids(store.exchanges.list({ search: 'pelican' }))).toEqual([a.id]);
    // Not indexed yet, a row completed again is searched as it now is.
    store.exchanges.complete(a.id, { response: null, error: 'upstream timed out', durationMs: 1, completedAt: new Date().toISOString() });
    expect(ids(store.exchanges.list({ search: 'pelican' }))).toEqual([]);
    expect(ids(store.exchanges.list({ search: 'timed out' }))).toEqual([a.id]);
    // Indexed (a is complete; b, in flight and young, holds the indexer back): found the same, once.
    expect(new TextIndex(connectionOf(store)).indexAll()).toBe(1);
    expect(state(store)).toBe(a.id);
    expect(ids(store.exchanges.list({ search: 'timed out' }))).toEqual([a.id]);
    expect(ids(store.exchanges.list({ search: 'dep-' }))).toEqual([b.id, a.id]);

    connectionOf(store).prepare('DELETE FROM exchanges WHERE id = ?').run(a.id);
    expect(ids(store.exchanges.list({ search: 'blackjack' }))).toEqual([]);
    expect(ids(store.exchanges.list({ search: 'timed out' }))).toEqual([]);
    expect(documents(store)).toBe(0);
    store.close();
  });

  it('combines with the filters, pages newest first, and takes quotes and operators as text', () => {
    const store = openStore(tempDir());
    const made: number[] = [];
    for (let i = 0; i < 30; i++) {
      const body = i % 3 === 0 ? '{"say":"he said \\"AND\\" OR NOT *"}' : '{"say":"nothing"}';
      const row = inboundRow({ kind: i % 2 ? 'results' : 'pay', body: Buffer.from(body), keys: keys(`dep-${i}`) });
      made.push(store.exchanges.insert(row).id);
    }
    const quoted = made.filter((_, i) => i % 3 === 0).reverse();
    expect(ids(store.exchanges.list({ search: '\\"AND\\" OR NOT *' }))).toEqual(quoted);
    const pays = made.filter((_, i) => i % 3 === 0 && i % 2 === 0).reverse();
    expect(ids(store.exchanges.list({ search: 'AND\\" OR', kind: 'pay' }))).toEqual(pays);
    const first = store.exchanges.list({ search: 'said', limit: 4 });
    expect(ids(first)).toEqual(quoted.slice(0, 4));
    const second = store.exchanges.list({ search: 'said', limit: 4, beforeId: first.nextBeforeId! });
    expect(ids(second)).toEqual(quoted.slice(4, 8));
    expect(store.exchanges.list({ search: 'said', limit: 4, beforeId: second.nextBeforeId! }).nextBeforeId).toBeNull();
    store.close();
  });

  it('finds every row of a database written before the index existed, before any of it is indexed', () => {
    const home = tempDir();
    const db = new Database(join(home, DATABASE_FILE));
    const before = MIGRATIONS.slice(
      0,
      MIGRATIONS.findIndex((m) => m.name === 'search-and-saved-requests'),
    );
    migrate(db, 0, before);
    const insert = db.prepare(
      `INSERT INTO exchanges (direction, kind, origin, at, method, path, req_headers, req_body, req_size, deposit_id, res_status, res_headers, res_body)
       VALUES ('inbound', 'pay', 'proxy', '2026-01-01T00:00:00Z', 'POST', '/platform/pay', '[]', ?, 2, ?, 200, '[]', ?)`,
    );
    db.transaction(() => {
      for (let i = 1; i <= 45_000; i++) insert.run(Buffer.from(`{"n":${i}}`), `old-${i}`, Buffer.from(i === 44_321 ? '{"ok":"Walrus"}' : '{}'));
    })();
    db.close();
    const store = openStore(home);
    expect(ids(store.exchanges.list({ search: 'old-4432', limit: 20 }))).toEqual([
      44_329, 44_328, 44_327, 44_326, 44_325, 44_324, 44_323, 44_322, 44_321, 44_320, 4432,
    ]);
    expect(ids(store.exchanges.list({ search: 'walrus' }))).toEqual([44_321]);
    expect(ids(store.exchanges.list({ search: '"n":1}' }))).toEqual([1]);
    store.close();
  }, 60_000);
});
