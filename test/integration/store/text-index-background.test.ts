// The text index is filled off the capture path: by batches that stop at a row still in flight (its
// answer comes later), on a worker thread with its own connection while the store is written; a row
// in flight for long is indexed without its answer, which is found from the row until it is indexed.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE, connectionOf, openStore, type Store } from '../../../src-main/core/store/sqlite';
import { MIGRATIONS, migrate } from '../../../src-main/core/store/sqlite/migrations';
import { IN_FLIGHT_WAIT_MS } from '../../../src-main/core/store/rows/in-flight';
import { TEXT_INDEX_SQL, TextIndex } from '../../../src-main/core/store/sqlite/text-index';
import { INDEXER_PACE } from '../../../src-main/core/store/rows/indexer-pace';
import { TextIndexer } from '../../../src-main/core/store/sqlite/text-indexer';
import { PRUNE_DELETING_UNTIL } from '../../../src-main/core/store/sqlite/text-index-aside';
import type { ExchangeCompletion } from '../../../src-main/core/store/sqlite';
import { inboundRow } from '../../helpers/exchanges';
import { tempDir } from '../../helpers/temp';

const ids = (page: { items: ReadonlyArray<{ id: number }> }): number[] => page.items.map((x) => x.id);
const indexedUpto = (store: Store): number => connectionOf(store).prepare('SELECT indexed_upto FROM exchange_text_state').pluck().get() as number;
const listed = (store: Store): number[] => connectionOf(store).prepare('SELECT id FROM exchange_text_unanswered ORDER BY id').pluck().all() as number[];
/** The exchanges the index itself (not the direct test) finds for a phrase. */
const inIndex = (store: Store, phrase: string): number[] =>
  connectionOf(store).prepare('SELECT DISTINCT rowid >> 1 FROM exchange_text WHERE exchange_text MATCH ? ORDER BY 1').pluck().all(`"${phrase}"`) as number[];
const answer = (body: string): ExchangeCompletion => ({
  response: { status: 200, headers: [], body: Buffer.from(body) },
  error: null,
  durationMs: 1,
  completedAt: new Date().toISOString(),
});
const longAgo = (): string => new Date(Date.now() - IN_FLIGHT_WAIT_MS - 60_000).toISOString();

/** Writes `n` answered captures whose bodies hold `word`; the newest id. */
function writeAnswered(store: Store, n: number, word: string): number {
  let last = 0;
  store.immediate(() => {
    for (let i = 0; i < n; i++) {
      last = store.exchanges.insert(inboundRow({ body: Buffer.from(`{"memo":"${word} ${i}"}`) })).id;
      store.exchanges.complete(last, answer('ok'));
    }
  });
  return last;
}

/** Polls `check` until it holds, or fails after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('filling the text index', () => {
  it('finds a row captured just now, before anything is indexed, and its answer once recorded', () => {
    const store = openStore(tempDir());
    const row = store.exchanges.insert(inboundRow({ body: Buffer.from('{"memo":"Gannet"}') }));
    expect(indexedUpto(store)).toBe(0);
    expect(ids(store.exchanges.list({ search: 'gannet' }))).toEqual([row.id]);
    expect(ids(store.exchanges.list({ search: 'puffin' }))).toEqual([]);
    store.exchanges.complete(row.id, answer('{"seen":"Puffin"}'));
    expect(ids(store.exchanges.list({ search: 'puffin' }))).toEqual([row.id]);
    expect(indexedUpto(store)).toBe(0);
    store.close();
  });

  it('stops at a row in flight, so its answer is indexed with it once it comes', () => {
    const store = openStore(tempDir());
    const index = new TextIndex(connectionOf(store));
    const done = store.exchanges.insert(inboundRow({ body: Buffer.from('{"memo":"Heron"}') }));
    store.exchanges.complete(done.id, answer('Heron answered'));
    const flying = store.exchanges.insert(inboundRow({ body: Buffer.from('{"memo":"Heron too"}') }));
    expect(index.indexAll()).toBe(1);
    expect(indexedUpto(store)).toBe(done.id);
    expect(listed(store)).toEqual([]);
    store.exchanges.complete(flying.id, answer('Kittiwake'));
    expect(ids(store.exchanges.list({ search: 'kittiwake' }))).toEqual([flying.id]);
    expect(index.indexAll()).toBe(1);
    expect(inIndex(store, 'kittiwake')).toEqual([flying.id]);
    expect(ids(store.exchanges.list({ search: 'heron' }))).toEqual([flying.id, done.id]);
    store.close();
  });

  it('indexes a row in flight for long without its answer, and its answer when it comes, searchable all along', () => {
    const store = openStore(tempDir());
    const index = new TextIndex(connectionOf(store));
    const stuck = store.exchanges.insert(inboundRow({ at: longAgo(), body: Buffer.from('{"memo":"Osprey"}') }));
    const next = store.exchanges.insert(inboundRow({ body: Buffer.from('{"memo":"Osprey two"}') }));
    store.exchanges.complete(next.id, answer('fine'));
    expect(index.indexAll()).toBe(2);
    expect(listed(store)).toEqual([stuck.id]);
    expect(ids(store.exchanges.list({ search: 'osprey' }))).toEqual([next.id, stuck.id]);
    // The answer arrives after its row was indexed: no trigger; the search reads it from the row.
    store.exchanges.complete(stuck.id, answer('{"late":"Cormorant"}'));
    expect(inIndex(store, 'cormorant')).toEqual([]);
    expect(ids(store.exchanges.list({ search: 'cormorant' }))).toEqual([stuck.id]);
    expect(ids(store.exchanges.list({ search: 'cormorant', kind: 'pay' }))).toEqual([stuck.id]);
    // The next batch indexes it and takes the row off the list.
    index.batch();
    expect(listed(store)).toEqual([]);
    expect(inIndex(store, 'cormorant')).toEqual([stuck.id]);
    expect(ids(store.exchanges.list({ search: 'cormorant' }))).toEqual([stuck.id]);
    store.close();
  });

  it('takes a row out of the search when it is deleted or pruned, indexed, listed or not indexed yet', async () => {
    const store = openStore(tempDir());
    const index = new TextIndex(connectionOf(store));
    const made: number[] = [];
    for (let i = 0; i < 9; i++) {
      const row = store.exchanges.insert(inboundRow({ at: i === 4 ? longAgo() : new Date().toISOString(), body: Buffer.from(`{"memo":"Plover ${i}"}`) }));
      if (i !== 4 && i < 6) store.exchanges.complete(row.id, answer(`Plover answer ${i}`));
      made.push(row.id);
    }
    // 0-5 indexed (4 without its answer, listed); 6-8 in flight and young, not indexed.
    expect(index.indexAll()).toBe(6);
    expect(listed(store)).toEqual([made[4]]);
    await store.deleteExchanges({ ids: [made[1]!, made[4]!, made[7]!] });
    expect(ids(store.exchanges.list({ search: 'plover' }))).toEqual([made[8], made[6], made[5], made[3], made[2], made[0]]);
    expect(listed(store)).toEqual([]);
    expect(inIndex(store, 'plover')).toEqual([made[0], made[2], made[3], made[5]]);
    await store.prune({ keep: 2 });
    expect(ids(store.exchanges.list({ search: 'plover' }))).toEqual([made[8], made[6]]);
    expect(inIndex(store, 'plover')).toEqual([]);
    store.close();
  });

  it('counts a batch in rows, not ids: past a pruned stretch it indexes as many rows as it was asked', () => {
    const store = openStore(tempDir());
    const index = new TextIndex(connectionOf(store));
    const rows = Array.from({ length: 30 }, (_, i) => {
      const row = store.exchanges.insert(inboundRow({ body: Buffer.from(`{"memo":"Shearwater ${i}"}`) }));
      store.exchanges.complete(row.id, answer('fine'));
      return row;
    });
    // A prune deleted the oldest twenty before the indexer reached them.
    connectionOf(store).prepare('DELETE FROM exchanges WHERE id <= ?').run(rows[19]!.id);
    index.batch(5);
    expect(indexedUpto(store)).toBe(rows[24]!.id);
    expect(inIndex(store, 'shearwater')).toEqual(rows.slice(20, 25).map((r) => r.id));
    store.close();
  });

  it("keeps FTS5's deletemerge off: pruned rows are not found, and a vacuum drops their postings", async () => {
    const store = openStore(tempDir());
    const db = connectionOf(store);
    // FTS5's deletemerge rewrote segments inside a prune's batches (BENCHMARKS.md §11): off.
    expect(db.prepare("SELECT v FROM exchange_text_config WHERE k = 'deletemerge'").pluck().get()).toBe(0);
    const index = new TextIndex(db);
    const rows = Array.from({ length: 300 }, (_, i) => {
      const row = store.exchanges.insert(inboundRow({ body: Buffer.from(`{"memo":"Fulmar${i}x"}`) }));
      store.exchanges.complete(row.id, answer('fine'));
      return row;
    });
    while (index.batch(50).indexed > 0);
    const indexBytes = (): number => db.prepare('SELECT sum(length(block)) FROM exchange_text_data').pluck().get() as number;
    const full = indexBytes();
    await store.prune({ keep: 10 });
    expect(inIndex(store, 'fulmar1x')).toEqual([]);
    expect(inIndex(store, 'fulmar299x')).toEqual([rows[299]!.id]);
    await store.prune({ keep: 10, vacuum: true });
    expect(indexBytes()).toBeLessThan(full / 5);
    expect(inIndex(store, 'fulmar299x')).toEqual([rows[299]!.id]);
    store.close();
  });

  it('fills the index on a worker thread while the store is being written', async () => {
    const store = openStore(tempDir());
    writeAnswered(store, 3_000, 'Backlog');
    // Any backlog is indexed while the captures come (none waits for the load to end), at the busy pace.
    const indexer = TextIndexer.start(connectionOf(store), undefined, { ...INDEXER_PACE, busyBacklogRows: 0 });
    expect(indexer).not.toBeNull();
    try {
      // Captures keep coming while the backlog is indexed: every commit gets the lock.
      let last = 0;
      for (let round = 0; round < 40; round++) {
        last = writeAnswered(store, 25, 'Fresh');
        await new Promise((resolve) => setImmediate(resolve));
      }
      await until(() => indexedUpto(store) >= last, 60_000, 'the indexer to reach the newest row');
      expect(indexer!.lastFailure()).toBeNull();
      expect(inIndex(store, 'backlog').length).toBe(3_000);
      expect(inIndex(store, 'fresh').length).toBe(1_000);
      expect(store.exchanges.list({ search: 'fresh', limit: 1000 }).items.length).toBe(1_000);
    } finally {
      await indexer!.stop();
    }
    store.close();
  }, 90_000);

  it('leaves the rows for after the load while the proxies are busy, until a bound of them waits', async () => {
    const store = openStore(tempDir());
    writeAnswered(store, 50, 'Petrel');
    // Busy at every look (any rate is above -1): fewer than 100 rows waiting are left for later.
    const indexer = TextIndexer.start(connectionOf(store), undefined, { ...INDEXER_PACE, busyRate: -1, busyBacklogRows: 100, idleMs: 10 });
    expect(indexer).not.toBeNull();
    try {
      await until(() => indexer!.waitingOutLoad(), 30_000, 'the indexer to wait for the load to end');
      expect(indexedUpto(store)).toBe(0);
      // Searches stay right meanwhile: the rows not indexed yet are read directly.
      expect(store.exchanges.list({ search: 'petrel', limit: 100 }).items.length).toBe(50);
      // Past the bound the backlog is indexed (at the busy pace), down to under the bound again.
      const newest = writeAnswered(store, 60, 'Petrel');
      await until(() => indexedUpto(store) > 0, 30_000, 'the indexer to index past the bound');
      await until(() => indexer!.waitingOutLoad(), 30_000, 'the indexer to wait again');
      expect(newest - indexedUpto(store)).toBeLessThan(100);
      expect(indexer!.lastFailure()).toBeNull();
    } finally {
      await indexer!.stop();
    }
    store.close();
  }, 60_000);

  it('stands aside while a prune says it is deleting, and indexes once the notice is withdrawn', async () => {
    const store = openStore(tempDir());
    let last = 0;
    store.immediate(() => {
      for (let i = 0; i < 50; i++) {
        last = store.exchanges.insert(inboundRow({ body: Buffer.from(`{"memo":"Fulmar ${i}"}`) })).id;
        store.exchanges.complete(last, answer('ok'));
      }
    });
    store.settings.set(PRUNE_DELETING_UNTIL, String(Date.now() + 60_000));
    const indexer = TextIndexer.start(connectionOf(store));
    expect(indexer).not.toBeNull();
    try {
      await until(() => indexer!.standingAside(), 30_000, 'the indexer to stand aside');
      expect(indexedUpto(store)).toBe(0);
      // Searches stay right meanwhile: the rows not indexed yet are read directly.
      expect(store.exchanges.list({ search: 'fulmar', limit: 100 }).items.length).toBe(50);
      store.settings.set(PRUNE_DELETING_UNTIL, null);
      await until(() => indexedUpto(store) === last && !indexer!.standingAside(), 30_000, 'the indexer to index once the prune is done');
      expect(inIndex(store, 'fulmar').length).toBe(50);
    } finally {
      await indexer!.stop();
    }
    store.close();
  }, 60_000);

  it('keeps a database indexed by the answer triggers right: its rows indexed in flight find their answers', () => {
    const home = tempDir();
    const db = new Database(join(home, DATABASE_FILE));
    migrate(
      db,
      0,
      MIGRATIONS.filter((m) => m.version < 12),
    );
    const insert = db.prepare(
      `INSERT INTO exchanges (direction, kind, origin, at, method, path, req_headers, req_body, req_size, res_status, res_headers, res_body)
       VALUES ('inbound', 'pay', 'proxy', '2026-01-01T00:00:00Z', 'POST', '/platform/pay', '[]', ?, 2, ?, '[]', ?)`,
    );
    insert.run(Buffer.from('{"memo":"Avocet answered"}'), 200, Buffer.from('Dunlin'));
    insert.run(Buffer.from('{"memo":"Avocet in flight"}'), null, null);
    // Indexed as 009 did it (every row up to the newest, in flight or not).
    db.prepare(TEXT_INDEX_SQL.fill).run({ after: 0, upTo: 2 });
    db.prepare(TEXT_INDEX_SQL.advance).run({ upTo: 2 });
    db.close();

    const store = openStore(home);
    expect(listed(store)).toEqual([2]);
    expect(ids(store.exchanges.list({ search: 'avocet' }))).toEqual([2, 1]);
    expect(ids(store.exchanges.list({ search: 'dunlin' }))).toEqual([1]);
    store.exchanges.complete(2, answer('Sanderling'));
    expect(ids(store.exchanges.list({ search: 'sanderling' }))).toEqual([2]);
    new TextIndex(connectionOf(store)).batch();
    expect(inIndex(store, 'sanderling')).toEqual([2]);
    expect(listed(store)).toEqual([]);
    store.close();
  });
});
