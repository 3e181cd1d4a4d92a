// The capture list's queries on a large log, on both engines, the same way: one synthetic log (the store
// benchmark's generator: real bodies, signatures, deposits settled and replayed) written into a SQLite
// file and into a PostgreSQL database, then each list query timed through the desk's own reader
// (ExchangeReader: SQLite's ExchangeStore, PostgreSQL's TeamLog), p50 and p95 over many arguments.
//
// The rows are written in bulk (large transactions on SQLite, one array per column on PostgreSQL, ids
// given in order), not through the proxy: filling 10,000,000 rows capture by capture would take hours,
// and what is measured here is reading. Text search (three characters or more) is left out: its index
// is filled in the background as captures come (bench/store.ts and §2 measure it on SQLite); a short
// search, an id prefix, is in.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { connectionOf, openStore, type Store } from '../src-main/core/store/sqlite';
import type { ExchangeReader } from '../src-main/core/store/contract/exchange-log';
import { sqliteReader } from '../src-main/core/store/sqlite/log';
import { COMPLETE_COLUMNS, INSERT_COLUMNS } from '../src-main/core/store/rows/exchange-values';
import { TeamLog } from '../src-main/core/store/postgres';
import type { NewRow } from '../src-main/core/store/postgres/row-buffer';
import type { ExchangeQuery } from '../src-main/shared/model';
import { fillPostgres } from './lib/postgres-fill';
import { generateRows, newRowOf, userIdOf, USERS, type GeneratedRow } from './lib/exchange-rows';
import { startBenchPostgres } from './lib/postgres';
import { rng } from './lib/rng';
import { fmtInt, fmtMs, fmtRatio, percentile } from './lib/stats';
import { table } from './lib/table';

const BATCH = 2_000;
const SQLITE_TX = 50_000;
/** The capture list asks for 200 rows a page (src-renderer/store/captures-slice.ts PAGE_SIZE). */
const PAGE = 200;
const ROW_COLUMNS = [...INSERT_COLUMNS, ...COMPLETE_COLUMNS];

export interface TeamScaleOptions {
  rows: number;
  iterations: number;
  /** Keeps (and reuses) the SQLite file here; PostgreSQL is filled on each run (first). */
  storeDir: string | null;
  scratch: string;
  log: (line: string) => void;
}

interface Timed {
  name: string;
  p50: number;
  p95: number;
  /** Rows the last call returned; null: the engine refused the query. */
  rows: number | null;
  refused?: string;
}

export interface TeamScaleResult {
  rows: number;
  fill: { sqliteMs: number | null; postgresMs: number };
  sqlite: Timed[];
  postgres: Timed[];
  /** Every query's last call returned as many rows on both engines (the same log, the same arguments). */
  agree: boolean;
}

type Values = Record<string, unknown>;

function* valueBatches(rows: number, deposits: string[]): Generator<Values[]> {
  let batch: Values[] = [];
  let index = 0;
  for (const g of generateRows(rows, 42, deposits)) {
    batch.push(rowValues(g, ++index));
    if (batch.length === BATCH) (yield batch, (batch = []));
  }
  if (batch.length > 0) yield batch;
}

/** A generated row as the columns' values. */
function rowValues(g: GeneratedRow, id: number): Values {
  const row = newRowOf(g);
  return { id, ...row.values, ...row.finish };
}

/** The generated rows as the writer's new rows, for PostgreSQL's bulk fill (ids in order). */
function* teamRows(rows: number, deposits: string[]): Generator<NewRow> {
  for (const g of generateRows(rows, 42, deposits)) yield newRowOf(g);
}

function fillSqlite(store: Store, rows: number, log: (line: string) => void): number {
  const db = connectionOf(store);
  const columns = ['id', ...ROW_COLUMNS];
  const insert = db.prepare(`INSERT INTO exchanges (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  const commit = db.transaction((batches: Values[][]) => {
    for (const b of batches) for (const v of b) insert.run(columns.map((c) => v[c]));
  });
  const t0 = performance.now();
  let done = 0;
  let tx: Values[][] = [];
  for (const batch of valueBatches(rows, [])) {
    tx.push(batch);
    done += batch.length;
    if (tx.length * BATCH >= SQLITE_TX) {
      commit(tx);
      tx = [];
      if (done % 1_000_000 === 0) log(`  SQLite: ${fmtInt(done)} of ${fmtInt(rows)} rows (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
  }
  if (tx.length > 0) commit(tx);
  db.exec('ANALYZE');
  return performance.now() - t0;
}

interface QuerySpec {
  name: string;
  run(log: ExchangeReader, i: number): Promise<number>;
}

function specs(deposits: readonly string[], replayed: readonly string[], maxId: number): QuerySpec[] {
  const pick = rng(7);
  const user = (): string => userIdOf(Math.floor(pick() * USERS));
  const at = <T>(list: readonly T[], i: number): T => list[(i * 7919) % list.length]!;
  const page = async (log: ExchangeReader, q: ExchangeQuery): Promise<number> => (await log.list({ ...q, limit: PAGE })).items.length;
  return [
    { name: 'first page', run: (x) => page(x, {}) },
    { name: 'first page, all directions', run: (x) => page(x, { direction: 'all' }) },
    { name: 'page deep in the log', run: (x, i) => page(x, { beforeId: Math.floor(maxId * (0.1 + 0.8 * (((i * 7919) % 1000) / 1000))) }) },
    { name: 'by depositId', run: (x, i) => page(x, { depositId: at(deposits, i) }) },
    { name: 'by userId', run: (x) => page(x, { userId: user() }) },
    { name: 'by verdict (rare: mismatch)', run: (x) => page(x, { verdict: 'mismatch' }) },
    { name: 'by verdict (common: valid)', run: (x) => page(x, { verdict: 'valid' }) },
    { name: 'by kind and result', run: (x) => page(x, { kind: 'results', result: 'DRAW' }) },
    { name: 'by verdict and user', run: (x) => page(x, { verdict: 'mismatch', userId: user() }) },
    { name: 'deposit timeline', run: async (x, i) => (await x.timeline(at(deposits, i))).entries.length },
    { name: 'timeline with a replay', run: async (x, i) => (await x.timeline(at(replayed, i))).entries.length },
    { name: 'search: a deposit prefix (2 chars)', run: (x, i) => page(x, { search: at(deposits, i).slice(0, 2) }) },
    { name: 'one exchange (detail)', run: async (x, i) => ((await x.get(1 + ((i * 7919) % maxId))) ? 1 : 0) },
  ];
}

async function timeAll(reader: ExchangeReader, list: QuerySpec[], iterations: number, log: (line: string) => void, label: string): Promise<Timed[]> {
  const out: Timed[] = [];
  for (const spec of list) {
    const times: number[] = [];
    let rows: number | null = 0;
    let refused: string | undefined;
    // One call first, untimed: a cold plan or page cache is not what a person paging the list meets twice.
    try {
      await spec.run(reader, 0);
      for (let i = 1; i <= iterations; i++) {
        const t = performance.now();
        rows = await spec.run(reader, i);
        times.push(performance.now() - t);
      }
    } catch (err) {
      refused = (err as Error).message.slice(0, 80);
      rows = null;
    }
    const timed: Timed = { name: spec.name, p50: percentile(times, 50), p95: percentile(times, 95), rows, ...(refused ? { refused } : {}) };
    log(`  ${label}: ${spec.name}: ${refused ? `refused (${refused})` : `p50 ${fmtMs(timed.p50)}, p95 ${fmtMs(timed.p95)}`}`);
    out.push(timed);
  }
  return out;
}

/** The SQLite file of an earlier run, if it holds the whole log (a fill stopped halfway is made again). */
function openFilled(home: string, rows: number): { store: Store; whole: boolean } {
  const file = join(home, 'wager-desk.sqlite');
  if (existsSync(file)) {
    const store = openStore(home);
    const count = connectionOf(store).prepare('SELECT count(*) FROM exchanges').pluck().get() as number;
    if (count === rows) return { store, whole: true };
    store.close();
    rmSync(home, { recursive: true, force: true });
  }
  mkdirSync(home, { recursive: true });
  return { store: openStore(home), whole: false };
}

export async function runTeamScaleBench(o: TeamScaleOptions): Promise<TeamScaleResult> {
  const deposits: string[] = [];
  // PostgreSQL first: its log is made again on every run (the server is a throwaway one).
  const server = await startBenchPostgres();
  let postgresMs: number;
  let postgres: Timed[];
  let replayed: string[];
  try {
    const url = await server.newDatabase();
    const t0 = performance.now();
    await fillPostgres(url, teamRows(o.rows, deposits), (done) => {
      if (done % 1_000_000 === 0) o.log(`  PostgreSQL: ${fmtInt(done)} of ${fmtInt(o.rows)} rows (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    });
    postgresMs = performance.now() - t0;
    const team = new TeamLog(url);
    try {
      replayed = (
        await team.run((c) =>
          c.query<{ deposit_id: string }>(
            'SELECT s.deposit_id FROM exchanges r JOIN exchanges s ON s.id = r.source_id WHERE r.source_id IS NOT NULL LIMIT 200',
          ),
        )
      ).rows.map((r) => r.deposit_id);
      postgres = await timeAll(team.reader(), specs(deposits, replayed, o.rows), o.iterations, o.log, 'PostgreSQL');
    } finally {
      await team.close();
      await server.dropDatabase(url);
    }
  } finally {
    await server.stop();
  }

  const home = join(o.storeDir ?? join(o.scratch, 'team-scale'), `sqlite-${o.rows}`);
  const { store, whole } = openFilled(home, o.rows);
  try {
    if (whole) o.log(`  SQLite: reusing ${home}`);
    const sqliteMs = whole ? null : fillSqlite(store, o.rows, o.log);
    const sqlite = await timeAll(sqliteReader(store.exchanges), specs(deposits, replayed, o.rows), o.iterations, o.log, 'SQLite');
    const agree = sqlite.every((t, i) => t.refused !== undefined || postgres[i]!.refused !== undefined || t.rows === postgres[i]!.rows);
    return { rows: o.rows, fill: { sqliteMs, postgresMs }, sqlite, postgres, agree };
  } finally {
    store.close();
  }
}

export function formatTeamScaleResult(r: TeamScaleResult): string {
  const cell = (t: Timed | undefined): string => (!t ? '-' : t.refused ? 'refused' : `${fmtMs(t.p50)} / ${fmtMs(t.p95)}`);
  const rows = r.sqlite.map((s, i) => {
    const p = r.postgres[i];
    return [s.name, cell(s), cell(p), s.refused || p?.refused ? '-' : fmtRatio(p!.p95 / s.p95), String(s.rows ?? '-')];
  });
  return [
    `${r.agree ? 'both engines answered every query with the same rows' : 'THE ENGINES DISAGREE on some query'}`,
    `${fmtInt(r.rows)} exchanges; filled in ${r.fill.sqliteMs === null ? '(reused)' : fmtMs(r.fill.sqliteMs)} (SQLite), ${fmtMs(r.fill.postgresMs)} (PostgreSQL)`,
    table(['query', 'SQLite p50 / p95', 'PostgreSQL p50 / p95', 'p95 PostgreSQL / SQLite', 'rows'], rows),
  ].join('\n');
}
