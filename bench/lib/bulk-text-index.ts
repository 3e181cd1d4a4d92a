// Each engine's text index filled in bulk over a log whose rows are all answered: the indexers' own fill
// statements (TEXT_INDEX_SQL, PG_TEXT_INDEX_SQL: the text is made in SQL by each engine, as the indexers
// make it) over large id ranges instead of the indexers' 2,000-row batches, and on PostgreSQL with
// exchange_text's trigram indexes set aside and built once at the end. What is left is what
// TextIndex.indexAll / indexAllText leave: every row's text, indexed_upto at the newest id, nobody
// listed as unanswered (test/integration/team-store/bulk-search-fill.test.ts compares the two).
import type pg from 'pg';
import type { Db } from '../../src-main/core/store/sqlite/open';
import { connectPostgres } from '../../src-main/core/store/postgres';
import { PG_TEXT_INDEX_SQL } from '../../src-main/core/store/postgres/text-index';
import { TEXT_INDEX_SQL } from '../../src-main/core/store/sqlite/text-index';
import { isComplete } from '../../src-main/core/store/rows/in-flight';
import { setAsidePostgresIndexes } from './index-set-aside';

/** Rows per statement: large enough that a statement's fixed costs vanish, small enough for its sort to stay in memory. */
const SQLITE_RANGE = 100_000;
const POSTGRES_RANGE = 250_000;
const POSTGRES_CONNECTIONS = 2;

/** The bulk path leaves no row for the indexers' in-flight rules: a row still waiting for its answer is refused. */
function unanswered(count: number): Error {
  return new Error(`${count} rows have no answer yet: the bulk text index is for a log whose rows are all answered`);
}

/** Indexes every row past indexed_upto; returns the rows indexed. */
export function bulkIndexSqlite(db: Db): number {
  const s = TEXT_INDEX_SQL;
  const after = db.prepare(s.upTo).pluck().get() as number;
  const maxId = db.prepare(s.maxId).pluck().get() as number;
  const open = db
    .prepare(`SELECT count(*) FROM exchanges AS e WHERE id > ? AND NOT ${isComplete('e')}`)
    .pluck()
    .get(after) as number;
  if (open > 0) throw unanswered(open);
  const fill = db.prepare(s.fill);
  const advance = db.prepare(s.advance);
  const range = db.transaction((from: number, upTo: number) => {
    fill.run({ after: from, upTo });
    advance.run({ upTo });
  });
  for (let from = after; from < maxId; from += SQLITE_RANGE) range.immediate(from, Math.min(maxId, from + SQLITE_RANGE));
  return Math.max(0, maxId - after);
}

/** Indexes every row past indexed_upto on `url`'s database; returns the rows indexed and the time building the trigram indexes took. */
export async function bulkIndexPostgres(url: string): Promise<{ rows: number; trigramMs: number }> {
  const s = PG_TEXT_INDEX_SQL;
  const clients: pg.Client[] = await Promise.all(Array.from({ length: POSTGRES_CONNECTIONS }, () => connectPostgres(url, { numbers: true })));
  const first = clients[0]!;
  try {
    const after = (await first.query<{ upto: number }>(s.upTo)).rows[0]!.upto;
    const maxId = (await first.query<{ m: number }>('SELECT coalesce(max(id), 0)::float8 AS m FROM exchanges')).rows[0]!.m;
    const open = (await first.query<{ n: number }>(`SELECT count(*)::float8 AS n FROM exchanges AS e WHERE id > $1 AND NOT ${isComplete('e')}`, [after]))
      .rows[0]!.n;
    if (open > 0) throw unanswered(open);
    const trigram = await setAsidePostgresIndexes(clients, 'exchange_text');
    const ranges: Array<[number, number]> = [];
    for (let from = after; from < maxId; from += POSTGRES_RANGE) ranges.push([from, Math.min(maxId, from + POSTGRES_RANGE)]);
    await Promise.all(
      clients.map(async (c) => {
        for (let r = ranges.shift(); r; r = ranges.shift()) await c.query(s.fill, r);
      }),
    );
    await first.query('BEGIN');
    await first.query(s.keepGaps, [after, maxId]);
    await first.query(s.advance, [maxId]);
    await first.query('COMMIT');
    const t = performance.now();
    await trigram.restore();
    return { rows: Math.max(0, maxId - after), trigramMs: performance.now() - t };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
