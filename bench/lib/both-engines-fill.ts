// One synthetic log (the store benchmark's generator) written into a SQLite store and a PostgreSQL
// database at once, for benchmarks that need millions of the same rows on both engines. Each row is
// generated once and goes to both: SQLite in large transactions on this thread, PostgreSQL through the
// proxy's own statement on two connections (postgres-fill.ts), so the server inserts while this thread
// generates. Ids are 1, 2, ... in generation order on both. The exchanges' secondary indexes (and on
// PostgreSQL their foreign keys) are set aside during the writes and made again after, from each
// engine's own definitions.
//
// The values are the ones ExchangeStore.insert and complete write (insertValues, completionValues);
// test/integration/team-store/bulk-search-fill.test.ts holds them to the store's own fill.
import type pg from 'pg';
import { connectionOf, type Store } from '../../src-main/core/store/sqlite';
import { connectPostgres } from '../../src-main/core/store/postgres';
import type { NewRow } from '../../src-main/core/store/postgres/row-buffer';
import { COMPLETE_COLUMNS, INSERT_COLUMNS } from '../../src-main/core/store/rows/exchange-values';
import { generateRows, newRowOf } from './exchange-rows';
import { setAsidePostgresForeignKeys, setAsidePostgresIndexes, setAsideSqliteIndexes } from './index-set-aside';
import { fillPostgres } from './postgres-fill';
import { fmtInt } from './stats';

/** Rows per SQLite transaction. */
const SQLITE_TX = 100_000;
const COLUMNS = ['id', ...INSERT_COLUMNS, ...COMPLETE_COLUMNS] as const;

export interface BothFill {
  deposits: string[];
  /** Generating and writing both engines (they overlap). */
  writeMs: number;
  /** Of writeMs, the time this thread spent in SQLite's statements. */
  sqliteWriteMs: number;
  /** Building the set-aside indexes again, each engine's. */
  sqliteIndexMs: number;
  postgresIndexMs: number;
}

export async function fillBothEngines(store: Store, url: string, rows: number, log: (line: string) => void): Promise<BothFill> {
  const db = connectionOf(store);
  const deposits: string[] = [];
  const admin: pg.Client[] = await Promise.all([0, 1].map(() => connectPostgres(url, { numbers: true })));
  try {
    const sqliteIndexes = setAsideSqliteIndexes(db, 'exchanges');
    const postgresIndexes = await setAsidePostgresIndexes(admin, 'exchanges');
    // A replay names its pay, which may be in the other connection's batch, still uncommitted.
    const postgresKeys = await setAsidePostgresForeignKeys(admin[0]!, 'exchanges');
    const insert = db.prepare(`INSERT INTO exchanges (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
    let sqliteWriteMs = 0;
    let id = 0;
    // Read by fillPostgres batch by batch; each row goes into SQLite's open transaction as it passes.
    function* rowsOfBoth(): Generator<NewRow> {
      for (const g of generateRows(rows, 42, deposits)) {
        const row = newRowOf(g);
        const values: Record<string, unknown> = { id: ++id, ...row.values, ...row.finish };
        const s = performance.now();
        if (id % SQLITE_TX === 1) db.exec('BEGIN');
        insert.run(COLUMNS.map((c) => values[c]));
        if (id % SQLITE_TX === 0 || id === rows) db.exec('COMMIT');
        sqliteWriteMs += performance.now() - s;
        yield row;
      }
    }
    const t0 = performance.now();
    await fillPostgres(url, rowsOfBoth(), (done) => {
      if (done % 1_000_000 === 0) log(`  written ${fmtInt(done)} of ${fmtInt(rows)} rows (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    });
    const writeMs = performance.now() - t0;
    log(`  both engines written in ${(writeMs / 1000).toFixed(1)} s; building their indexes again...`);
    // PostgreSQL's builds run on the server while SQLite's run here; each is timed on its own.
    const t1 = performance.now();
    const postgresDone = postgresIndexes
      .restore()
      .then(() => postgresKeys.restore())
      .then(() => performance.now() - t1);
    const t2 = performance.now();
    await sqliteIndexes.restore();
    const sqliteIndexMs = performance.now() - t2;
    const postgresIndexMs = await postgresDone;
    return { deposits, writeMs, sqliteWriteMs, sqliteIndexMs, postgresIndexMs };
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
    await Promise.all(admin.map((c) => c.end()));
  }
}
