// Rows written into a team's PostgreSQL log in bulk: the proxy's own statement (one array per column,
// groupStatement) with a few thousand rows each, ids given in order, on two connections at once (the
// generating and the server's inserting overlap). Filling a million rows capture by capture would take
// the better part of an hour; what the benchmarks measure is what happens once they are there.
import type { ExchangeCompletion, NewExchange } from '../../src-main/core/capture/new-exchange';
import { connectPostgres } from '../../src-main/core/store/postgres';
import { groupStatement } from '../../src-main/core/store/postgres/group-statement';
import type { NewRow } from '../../src-main/core/store/postgres/row-buffer';
import { completionValues, insertValues } from '../../src-main/core/store/rows/exchange-values';

const BATCH = 2_000;
const CONNECTIONS = 2;

/**
 * The rows `rows` yields, in order, written with ids 1, 2, ...; the id sequence then continues after them.
 * `progress` hears the rows written at each 100,000th.
 */
export async function fillPostgres(url: string, rows: Iterable<NewRow>, progress: (done: number) => void = () => {}): Promise<number> {
  const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => connectPostgres(url, { numbers: true })));
  const source = rows[Symbol.iterator]();
  let next = 0;
  // Each connection takes the next batch when its statement is done: the iterator is only read between
  // statements, on this one thread, so each batch's ids follow the last one's.
  const take = (): { inserts: NewRow[]; ids: number[] } | null => {
    const inserts: NewRow[] = [];
    const ids: number[] = [];
    for (let r = source.next(); !r.done; r = source.next()) {
      inserts.push(r.value);
      ids.push(++next);
      if (inserts.length === BATCH) break;
    }
    return inserts.length > 0 ? { inserts, ids } : null;
  };
  try {
    await Promise.all(
      clients.map(async (client) => {
        for (let batch = take(); batch; batch = take()) {
          await client.query(groupStatement({ ...batch, updates: [] }, 'wager_desk_bench_fill'));
          const done = batch.ids.at(-1)!;
          if (done % 100_000 === 0) progress(done);
        }
      }),
    );
    await clients[0]!.query(`SELECT setval(pg_get_serial_sequence('exchanges', 'id'), $1)`, [next]);
    await clients[0]!.query('VACUUM (ANALYZE) exchanges');
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
  return next;
}

/**
 * Row `i` for i in 0..rows-1, each with `answer` recorded (as a log whose callbacks all got their
 * answers: a row left without one is listed for the text indexer to come back to, which a real log
 * holds a handful of, not a million).
 */
export function* answeredRows(rows: number, row: (i: number) => NewExchange, answer: ExchangeCompletion): Generator<NewRow> {
  const finish = completionValues(answer);
  for (let i = 0; i < rows; i++) yield { values: insertValues(row(i)), finish };
}
