// A desk's reading connections to a team's PostgreSQL plan every statement for one server process: a
// search through the whole log with parallel workers would take every core of the server from the
// proxies' commits beside it. The control: the same statement, on a connection without the setting,
// is planned with workers (the planner's costs set so that any scan would be).
import { describe, expect, it } from 'vitest';
import { connectPostgres, poolPostgres } from '../../../src-main/core/store/postgres/connect';
import { usePostgres } from '../../helpers/postgres';

const server = usePostgres();
/** Costs that make the planner take workers for any scan it can. */
const EAGER = 'SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0';
const SCAN = "EXPLAIN SELECT count(*) FROM rows_to_scan WHERE text LIKE '%nowhere%'";

const planOf = (rows: Array<Record<string, string>>): string => rows.map((r) => r['QUERY PLAN']).join('\n');

describe("a desk's reads on PostgreSQL", () => {
  it('are planned without parallel workers, on a lone connection and on a pool', async () => {
    const url = await server().newDatabase();
    const control = await connectPostgres(url);
    const lone = await connectPostgres(url, { oneProcess: true });
    const pool = await poolPostgres(url, { oneProcess: true, max: 1 });
    try {
      await control.query("CREATE TABLE rows_to_scan AS SELECT g AS id, 'row ' || g AS text FROM generate_series(1, 50000) AS g");
      await control.query('ANALYZE rows_to_scan');
      await control.query(EAGER);
      expect(planOf((await control.query(SCAN)).rows)).toContain('Gather');

      await lone.query(EAGER);
      expect(planOf((await lone.query(SCAN)).rows)).not.toContain('Gather');
      expect((await lone.query('SHOW max_parallel_workers_per_gather')).rows[0]).toEqual({ max_parallel_workers_per_gather: '0' });

      const client = await pool.connect();
      try {
        await client.query(EAGER);
        expect(planOf((await client.query(SCAN)).rows)).not.toContain('Gather');
      } finally {
        client.release();
      }
    } finally {
      await Promise.all([control.end(), lone.end(), pool.end()]);
    }
  }, 120_000);
});
