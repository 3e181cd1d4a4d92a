// The proxy's writer plans its group statement once per connection and keeps the plan, and the kept
// plan finds the rows it updates by their key, even when it was made while the log was empty: planning
// each group anew cost about a third of the database's CPU a capture, and a plan kept from an empty
// log's statistics would read the whole table for every group's answers. The control: the same
// statement on a plain connection is planned anew for its first runs, and its plan from an empty log
// reads the whole table.
import { describe, expect, it } from 'vitest';
import { connectPostgres } from '../../../src-main/core/store/postgres/connect';
import { groupStatement } from '../../../src-main/core/store/postgres/group-statement';
import { WRITER } from '../../../src-main/core/store/postgres/team-log';
import { migratedDatabase, usePostgres } from '../../helpers/postgres';

const server = usePostgres();
const EMPTY_GROUP = groupStatement({ inserts: [], ids: [], updates: [] }, 'wager_desk_plan_test');

const planOf = async (client: { query: (sql: string) => Promise<{ rows: Array<Record<string, string>> }> }): Promise<string> =>
  (await client.query(`EXPLAIN (GENERIC_PLAN) ${EMPTY_GROUP.text}`)).rows.map((r) => r['QUERY PLAN']).join('\n');

const plansMade = async (client: { query: (sql: string) => Promise<{ rows: Array<Record<string, number>> }> }) =>
  (await client.query("SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE name = 'wd-commit-group'")).rows[0];

describe("the proxy's writer on PostgreSQL", () => {
  it('plans its group statement once and keeps a plan that finds rows by key, from an empty log on', async () => {
    const url = await migratedDatabase(server());
    const writer = await connectPostgres(url, WRITER);
    const control = await connectPostgres(url, { numbers: true });
    try {
      expect(await planOf(control)).toMatch(/Seq Scan on exchanges e\b/);
      const fromEmpty = await planOf(writer);
      expect(fromEmpty).toContain('Index Scan using exchanges_pkey on exchanges e');
      expect(fromEmpty).not.toMatch(/Seq Scan on exchanges|Hash Join|Merge Join/);

      for (let i = 0; i < 6; i++) {
        await writer.query(EMPTY_GROUP);
        await control.query(EMPTY_GROUP);
      }
      expect(await plansMade(writer)).toEqual({ generic_plans: 6, custom_plans: 0 });
      expect((await plansMade(control))?.custom_plans).toBeGreaterThanOrEqual(5);

      // A grown, analyzed log: still one probe of the key a row.
      await control.query(`INSERT INTO exchanges (direction, kind, origin, at, method, path, req_headers, req_body, req_size, verdict, profile)
        SELECT 'inbound', 'pay', 'proxy', '2026-01-01T00:00:00Z', 'POST', '/acme/pay', '{}', '', 0, 'valid', 'acme' FROM generate_series(1, 20000)`);
      await control.query('ANALYZE exchanges');
      expect(await planOf(writer)).toContain('Index Scan using exchanges_pkey on exchanges e');
    } finally {
      await Promise.all([writer.end(), control.end()]);
    }
  }, 120_000);
});
