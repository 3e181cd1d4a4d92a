// Rows written into a team's PostgreSQL log in bulk: the proxy's own statement (one array per column,
// groupStatement) with a few thousand rows each, ids given in order, on two connections at once (the
// generating and the server's inserting overlap). Filling a million rows capture by capture would take
// the better part of an hour; what the benchmarks measure is what happens once they are there.
import type { NewExchange } from '../../src-main/core/capture/new-exchange';
import { connectPostgres } from '../../src-main/core/store/postgres';
import { groupStatement } from '../../src-main/core/store/postgres/group-statement';
import { insertValues } from '../../src-main/core/store/rows/exchange-values';

const BATCH = 2_000;
const CONNECTIONS = 2;

/** Row `i` for i in 0..rows-1, written with ids 1..rows; the id sequence then continues after them. */
export async function fillPostgresRows(url: string, rows: number, row: (i: number) => NewExchange, progress: (done: number) => void = () => {}): Promise<void> {
  const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => connectPostgres(url, { numbers: true })));
  try {
    let next = 0;
    await Promise.all(
      clients.map(async (client) => {
        while (next < rows) {
          const from = next;
          const n = Math.min(BATCH, rows - from);
          next += n;
          const ids = Array.from({ length: n }, (_, k) => from + k + 1);
          // Rows as the proxy's writer buffers them; none answered yet.
          const inserts = ids.map((id) => ({ values: insertValues(row(id - 1)), finish: null }));
          await client.query(groupStatement({ inserts, ids, updates: [] }, 'wager_desk_bench_fill'));
          if ((from + n) % 100_000 === 0) progress(from + n);
        }
      }),
    );
    await clients[0]!.query(`SELECT setval(pg_get_serial_sequence('exchanges', 'id'), $1)`, [rows]);
    await clients[0]!.query('VACUUM (ANALYZE) exchanges');
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}
