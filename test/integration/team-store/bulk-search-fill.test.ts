// The search benchmark's bulk path (bench/lib/both-engines-fill.ts, bench/lib/bulk-text-index.ts) against
// the path it stands in for: the store's own fill, db copy's code and each engine's indexer. Both must
// leave the same rows, the same text index (every trigram of every document on SQLite, every row's
// text and answer on PostgreSQL), the same indexes and the same search results, or the 10,000,000-row
// figures would measure another log than the 200,000-row ones.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fillBothEngines } from '../../../bench/lib/both-engines-fill';
import { bulkIndexPostgres, bulkIndexSqlite } from '../../../bench/lib/bulk-text-index';
import { fillExchanges } from '../../../bench/store';
import { COPIED_TABLES } from '../../../src-main/core/store/copy/copied-tables';
import { copyTables } from '../../../src-main/core/store/copy/copy-tables';
import { postgresSide } from '../../../src-main/core/store/copy/postgres-side';
import { sqliteSide } from '../../../src-main/core/store/copy/sqlite-side';
import { connectPostgres, TeamLog } from '../../../src-main/core/store/postgres';
import { indexAllText } from '../../../src-main/core/store/postgres/text-index';
import { connectionOf, openStore, type Store } from '../../../src-main/core/store/sqlite';
import { TextIndex } from '../../../src-main/core/store/sqlite/text-index';
import type { ExchangeQuery } from '../../../src-main/shared/model';
import { migratedDatabase, usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';

const server = usePostgres();
const ROWS = 3_000;

/** Every token of the FTS5 index (term, document, column, offset), hashed: the index's whole content, however its segments lie. */
function sqliteIndexDigest(store: Store): { instances: number; hash: string } {
  const db = connectionOf(store);
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.text_instances USING fts5vocab(main, exchange_text, instance)');
  const hash = createHash('sha256');
  let instances = 0;
  for (const r of db.prepare('SELECT term, doc, col, "offset" FROM temp.text_instances ORDER BY doc, "offset", term').raw().iterate()) {
    hash.update(`${(r as unknown[]).join('\t')}\n`);
    instances++;
  }
  return { instances, hash: hash.digest('hex') };
}

function sqliteState(store: Store): unknown {
  const db = connectionOf(store);
  return {
    exchanges: db.prepare('SELECT * FROM exchanges ORDER BY id').all(),
    state: db.prepare('SELECT * FROM exchange_text_state').all(),
    unanswered: db.prepare('SELECT * FROM exchange_text_unanswered').all(),
    indexes: db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name").all(),
  };
}

async function postgresState(url: string): Promise<unknown> {
  const c = await connectPostgres(url, { numbers: true });
  try {
    const all = async (sql: string): Promise<unknown[]> => (await c.query(sql)).rows;
    return {
      exchanges: await all('SELECT * FROM exchanges ORDER BY id'),
      text: await all('SELECT exchange_id, text, answer FROM exchange_text ORDER BY exchange_id'),
      state: await all('SELECT * FROM exchange_text_state'),
      unanswered: await all('SELECT * FROM exchange_text_unanswered'),
      gaps: await all('SELECT id FROM exchange_text_gaps ORDER BY id'),
      nextId: await all(`SELECT nextval(pg_get_serial_sequence('exchanges', 'id')) AS next`),
      indexes: await all('SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname'),
      constraints: await all(
        'SELECT conrelid::regclass::text AS t, conname, pg_get_constraintdef(oid) AS def, convalidated FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY conname',
      ),
    };
  } finally {
    await c.end();
  }
}

const searches = (deposits: string[]): ExchangeQuery[] => [
  { search: deposits[7]!.slice(9, 14) },
  { search: '"amount":3' },
  { search: 'application/json' },
  { search: '/pay', verdict: 'missing', kind: 'pay' },
  { search: '/pay', depositId: deposits[11]! },
  { search: 'status":"ok' },
  { search: 'no-such-text' },
];

describe("the search benchmark's bulk fill and text index", () => {
  it("leave the rows, text index and search results the store's fill, db copy and the indexers leave", async () => {
    // The path the benchmark's default run takes.
    const slowStore = openStore(tempDir());
    const slowUrl = await migratedDatabase(server());
    const bulkStore = openStore(tempDir());
    const bulkUrl = await migratedDatabase(server());
    const slowLog = new TeamLog(slowUrl);
    const bulkLog = new TeamLog(bulkUrl);
    try {
      const { deposits } = fillExchanges(slowStore, ROWS, () => {});
      expect(new TextIndex(connectionOf(slowStore)).indexAll()).toBe(ROWS);
      const c = await connectPostgres(slowUrl, { numbers: true });
      try {
        await copyTables(sqliteSide(connectionOf(slowStore), 'SQLite'), postgresSide(c, 'PostgreSQL'), {
          tables: COPIED_TABLES.filter((t) => t.name === 'exchanges'),
          batchRows: 2_000,
        });
        expect(await indexAllText(c)).toBe(ROWS);
      } finally {
        await c.end();
      }

      const bulk = await fillBothEngines(bulkStore, bulkUrl, ROWS, () => {});
      expect(bulk.deposits).toEqual(deposits);
      expect(bulkIndexSqlite(connectionOf(bulkStore))).toBe(ROWS);
      expect((await bulkIndexPostgres(bulkUrl)).rows).toBe(ROWS);

      const slowDigest = sqliteIndexDigest(slowStore);
      expect(slowDigest.instances).toBeGreaterThan(ROWS * 100);
      expect(sqliteIndexDigest(bulkStore)).toEqual(slowDigest);
      expect(sqliteState(bulkStore)).toEqual(sqliteState(slowStore));
      const slowPg = (await postgresState(slowUrl)) as { text: unknown[] };
      expect(slowPg.text).toHaveLength(ROWS);
      expect(await postgresState(bulkUrl)).toEqual(slowPg);

      let found = 0;
      for (const q of searches(deposits)) {
        const ids = (items: Array<{ id: number }>): number[] => items.map((x) => x.id);
        const want = ids(slowStore.exchanges.list({ ...q, limit: 100 }).items);
        expect(ids(bulkStore.exchanges.list({ ...q, limit: 100 }).items), JSON.stringify(q)).toEqual(want);
        expect(ids((await slowLog.reader().list({ ...q, limit: 100 })).items), JSON.stringify(q)).toEqual(want);
        expect(ids((await bulkLog.reader().list({ ...q, limit: 100 })).items), JSON.stringify(q)).toEqual(want);
        found += want.length;
      }
      expect(found).toBeGreaterThan(300);
    } finally {
      await Promise.all([slowLog.close(), bulkLog.close()]);
      slowStore.close();
      bulkStore.close();
    }
  }, 120_000);
});
