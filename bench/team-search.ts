// Text search over a team's PostgreSQL log against the same search over SQLite, on the same rows: the
// store benchmark's synthetic log is generated into SQLite, copied into PostgreSQL with `db copy`'s own
// code, both text indexes are filled (each engine's indexer, timed), and each search runs on both
// engines in alternating calls (the machine's load falls on both alike), then again with the newest
// TAIL_ROWS rows left to the direct test (indexed_upto set back, as while an indexer catches up).
// `bulk` makes the same rows and the same index contents for millions of rows in minutes instead of
// hours: both engines written at once with their secondary indexes set aside (both-engines-fill.ts),
// each text index filled by its own statements over large ranges (bulk-text-index.ts).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { connectionOf, DATABASE_FILE, openStore, type Store } from '../src-main/core/store/sqlite';
import { COPIED_TABLES } from '../src-main/core/store/copy/copied-tables';
import { copyTables } from '../src-main/core/store/copy/copy-tables';
import { postgresSide } from '../src-main/core/store/copy/postgres-side';
import { sqliteSide } from '../src-main/core/store/copy/sqlite-side';
import { connectPostgres, TeamLog } from '../src-main/core/store/postgres';
import { indexAllText } from '../src-main/core/store/postgres/text-index';
import { TextIndex } from '../src-main/core/store/sqlite/text-index';
import type { ExchangeQuery } from '../src-main/shared/model';
import { fillBothEngines } from './lib/both-engines-fill';
import { bulkIndexPostgres, bulkIndexSqlite } from './lib/bulk-text-index';
import { startBenchPostgres } from './lib/postgres';
import { fmtBytes, fmtInt, fmtMs, fmtRatio, percentile } from './lib/stats';
import { table } from './lib/table';
import { fillExchanges } from './store';

const TAIL_ROWS = 2_000;

export interface TeamSearchOptions {
  rows: number;
  /** Calls per search and engine. */
  iterations: number;
  scratch: string;
  /** The bulk fill and text indexes instead of the store's own fill, db copy and the indexers. */
  bulk?: boolean;
  log: (line: string) => void;
}

interface Timed {
  name: string;
  tail: boolean;
  sqlite: { p50: number; p95: number; rows: number };
  postgres: { p50: number; p95: number; rows: number };
  /** PostgreSQL's p50 over SQLite's. */
  ratio: number;
}

export interface TeamSearchResult {
  rows: number;
  server: string;
  indexMs: { sqlite: number; postgres: number };
  /** The bulk path's steps (null without --bulk). */
  bulk: BulkTimes | null;
  searches: Timed[];
}

export interface BulkTimes {
  /** Both engines written at once; of it, SQLite's statements. */
  writeMs: number;
  sqliteWriteMs: number;
  /** The exchanges' secondary indexes built again. */
  sqliteExchangeIndexMs: number;
  postgresExchangeIndexMs: number;
  /** Of indexMs.postgres, building exchange_text's trigram indexes. */
  postgresTrigramMs: number;
}

interface Filled {
  deposits: string[];
  indexMs: { sqlite: number; postgres: number };
  bulk: BulkTimes | null;
}

/** The store's own fill, copied into PostgreSQL with db copy's code, each text index filled by its indexer. */
async function fillByIndexers(o: TeamSearchOptions, store: Store, client: pg.Client): Promise<Filled> {
  const db = connectionOf(store);
  o.log(`generating ${fmtInt(o.rows)} rows in SQLite...`);
  const { deposits } = fillExchanges(store, o.rows, o.log);
  const t0 = performance.now();
  new TextIndex(db).indexAll();
  const sqlite = performance.now() - t0;
  o.log('copying them into PostgreSQL...');
  await copyTables(sqliteSide(db, 'SQLite'), postgresSide(client, 'PostgreSQL'), {
    tables: COPIED_TABLES.filter((t) => t.name === 'exchanges'),
    batchRows: 2_000,
  });
  const t1 = performance.now();
  await indexAllText(client);
  return { deposits, indexMs: { sqlite, postgres: performance.now() - t1 }, bulk: null };
}

/** Both engines written at once, each text index filled in bulk by its own statements. */
async function fillInBulk(o: TeamSearchOptions, store: Store, url: string, client: pg.Client): Promise<Filled> {
  o.log(`writing ${fmtInt(o.rows)} rows into both engines at once...`);
  const fill = await fillBothEngines(store, url, o.rows, o.log);
  o.log('filling the text indexes in bulk...');
  const t0 = performance.now();
  bulkIndexSqlite(connectionOf(store));
  const sqlite = performance.now() - t0;
  o.log(`  SQLite ${fmtMs(sqlite)}`);
  const t1 = performance.now();
  const pgIndex = await bulkIndexPostgres(url);
  const postgres = performance.now() - t1;
  o.log(`  PostgreSQL ${fmtMs(postgres)} (trigram indexes ${fmtMs(pgIndex.trigramMs)})`);
  const pgBytes = (await client.query<{ b: number }>('SELECT pg_database_size(current_database())::float8 AS b')).rows[0]!.b;
  o.log(`  on disk: SQLite ${fmtBytes(statSync(join(o.scratch, 'team-search', DATABASE_FILE)).size)}, PostgreSQL ${fmtBytes(pgBytes)}`);
  return {
    deposits: fill.deposits,
    indexMs: { sqlite, postgres },
    bulk: {
      writeMs: fill.writeMs,
      sqliteWriteMs: fill.sqliteWriteMs,
      sqliteExchangeIndexMs: fill.sqliteIndexMs,
      postgresExchangeIndexMs: fill.postgresIndexMs,
      postgresTrigramMs: pgIndex.trigramMs,
    },
  };
}

export async function runTeamSearchBench(o: TeamSearchOptions): Promise<TeamSearchResult> {
  const store = openStore(join(o.scratch, 'team-search'));
  const server = await startBenchPostgres();
  try {
    const url = await server.newDatabase();
    const client = await connectPostgres(url, { numbers: true });
    const db = connectionOf(store);
    const { deposits, indexMs, bulk } = o.bulk ? await fillInBulk(o, store, url, client) : await fillByIndexers(o, store, client);
    // A team server's autovacuum would have analyzed the tables by now; the benchmark does not wait for it.
    await client.query('VACUUM ANALYZE exchanges');
    await client.query('VACUUM ANALYZE exchange_text');

    const log = new TeamLog(url);
    const pick = (i: number): string => deposits[(i * 7919) % deposits.length]!;
    const cases: Array<{ name: string; q: (i: number) => ExchangeQuery }> = [
      { name: 'part of a deposit id', q: (i) => ({ search: pick(i).slice(9, 14) }) },
      { name: 'a body value', q: (i) => ({ search: `"amount":${1 + (i % 9)}` }) },
      { name: 'in every row', q: () => ({ search: 'application/json' }) },
      { name: 'common + 2 rare filters', q: () => ({ search: '/pay', verdict: 'missing', kind: 'pay' }) },
      { name: 'common + a deposit', q: (i) => ({ search: '/pay', depositId: pick(i) }) },
      { name: 'no match', q: (i) => ({ search: `no-such-text-${i}` }) },
    ];
    const searches: Timed[] = [];
    const upTo = (db.prepare('SELECT indexed_upto FROM exchange_text_state').pluck().get() as number) - TAIL_ROWS;
    for (const tail of [false, true]) {
      if (tail) {
        // The newest rows stay in each index (a search merges them once) but are tested directly too.
        db.prepare('UPDATE exchange_text_state SET indexed_upto = ?').run(upTo);
        await client.query('UPDATE exchange_text_state SET indexed_upto = $1', [upTo]);
      }
      for (const c of cases) {
        const times = { sqlite: [] as number[], postgres: [] as number[] };
        const rows = { sqlite: 0, postgres: 0 };
        for (let i = 0; i < o.iterations; i++) {
          const q = { ...c.q(i), limit: 100 };
          const sqlite = (): void => {
            const s = performance.now();
            rows.sqlite = store.exchanges.list(q).items.length;
            times.sqlite.push(performance.now() - s);
          };
          const postgres = async (): Promise<void> => {
            const s = performance.now();
            rows.postgres = (await log.reader().list(q)).items.length;
            times.postgres.push(performance.now() - s);
          };
          if (i % 2 === 0) (sqlite(), await postgres());
          else (await postgres(), sqlite());
        }
        const stat = (t: number[], n: number) => ({ p50: percentile(t, 50), p95: percentile(t, 95), rows: n });
        const timed: Timed = {
          name: c.name,
          tail,
          sqlite: stat(times.sqlite, rows.sqlite),
          postgres: stat(times.postgres, rows.postgres),
          ratio: percentile(times.postgres, 50) / percentile(times.sqlite, 50),
        };
        if (timed.sqlite.rows !== timed.postgres.rows) throw new Error(`${c.name}: SQLite found ${timed.sqlite.rows} rows, PostgreSQL ${timed.postgres.rows}`);
        searches.push(timed);
        o.log(`  ${c.name}${tail ? ' (tail)' : ''}: SQLite p50 ${fmtMs(timed.sqlite.p50)}, PostgreSQL p50 ${fmtMs(timed.postgres.p50)}`);
      }
    }
    await log.close();
    await client.end();
    return { rows: o.rows, server: server.label, indexMs, bulk, searches };
  } finally {
    store.close();
    await server.stop();
  }
}

export function formatTeamSearchResult(r: TeamSearchResult): string {
  const lines = [
    `${fmtInt(r.rows)} rows; PostgreSQL: ${r.server}`,
    ...(r.bulk
      ? [
          `bulk fill: both engines written at once in ${fmtMs(r.bulk.writeMs)} (SQLite's statements ${fmtMs(r.bulk.sqliteWriteMs)} of it); ` +
            `exchanges' indexes built again: SQLite ${fmtMs(r.bulk.sqliteExchangeIndexMs)}, PostgreSQL ${fmtMs(r.bulk.postgresExchangeIndexMs)} (at once)`,
        ]
      : []),
    `indexing all rows${r.bulk ? ' (bulk)' : ''}: SQLite ${fmtMs(r.indexMs.sqlite)}, PostgreSQL ${fmtMs(r.indexMs.postgres)}` +
      (r.bulk ? ` (trigram indexes ${fmtMs(r.bulk.postgresTrigramMs)} of it)` : ''),
    table(
      ['search (limit 100)', 'rows', 'SQLite p50', 'SQLite p95', 'PostgreSQL p50', 'PostgreSQL p95', 'PG / SQLite (p50)'],
      r.searches.map((s) => [
        `${s.name}${s.tail ? `, newest ${fmtInt(TAIL_ROWS)} not indexed` : ''}`,
        fmtInt(s.postgres.rows),
        fmtMs(s.sqlite.p50),
        fmtMs(s.sqlite.p95),
        fmtMs(s.postgres.p50),
        fmtMs(s.postgres.p95),
        fmtRatio(s.ratio),
      ]),
    ),
  ];
  return lines.join('\n');
}
