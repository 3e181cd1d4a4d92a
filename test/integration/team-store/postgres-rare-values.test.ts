// The list's filters on PostgreSQL against the partial indexes of migration 5, in plans made for their
// values as every read's is: a rare verdict or kind is read from its index, newest first, with no sort;
// a common one from the log in id order; a deposit of one profile from the plain deposit index.
import { describe, expect, it } from 'vitest';
import { connectPostgres } from '../../../src-main/core/store/postgres';
import { pgFilterWhere } from '../../../src-main/core/store/postgres/exchange-reads';
import { groupStatement } from '../../../src-main/core/store/postgres/group-statement';
import type { RowFilter } from '../../../src-main/core/store/rows/row-filter';
import { insertValues } from '../../../src-main/core/store/rows/exchange-values';
import { inboundRow } from '../../helpers/exchanges';
import { migratedDatabase, usePostgres } from '../../helpers/postgres';

const server = usePostgres();
const ROWS = 20_000;
/** A page smaller than a rare value's rows (200 of each), so reading them in order pays. */
const PAGE = 20;

/** Nearly every row a valid pay or results; one in a hundred a mismatch, another a token request; two profiles. */
const row = (i: number) =>
  inboundRow({
    kind: i % 100 === 3 ? 'token' : i % 2 ? 'results' : 'pay',
    profile: i % 4 === 0 ? 'b' : 'a',
    signature: { verdict: i % 100 === 5 ? 'mismatch' : 'valid', notes: [], diagnosis: null },
    keys: { depositId: `dep-${i >> 1}`, userId: `u-${i % 7}`, result: null, gameId: null, amount: 5, currency: 'USD', tournamentId: null },
  });

describe('rare values on PostgreSQL', () => {
  it("reads a rare verdict or kind from its partial index in order, a common one along the log's key", async () => {
    const url = await migratedDatabase(server());
    const c = await connectPostgres(url, { numbers: true });
    try {
      const ids = Array.from({ length: ROWS }, (_, i) => i + 1);
      await c.query(groupStatement({ inserts: ids.map((id) => ({ values: insertValues(row(id)), finish: null })), ids, updates: [] }, 'wd_test'));
      await c.query('ANALYZE exchanges');
      const plan = async (f: RowFilter): Promise<string> => {
        const { where, params } = pgFilterWhere(f);
        const sql = `EXPLAIN (COSTS OFF) SELECT id FROM exchanges WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${PAGE + 1}`;
        return (await c.query<{ 'QUERY PLAN': string }>(sql, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
      };
      for (const rare of [{ verdict: 'mismatch' }, { kind: 'token' }] as const) {
        const index = Object.keys(rare)[0]!;
        for (const scope of [{ allProfiles: true }, { profile: 'b' }]) {
          const p = await plan({ ...scope, ...rare });
          expect(p).toMatch(new RegExp(`Index Scan Backward using exchanges_(profile_)?${index}\\b`));
          expect(p).not.toMatch(/Sort/);
        }
      }
      for (const common of [{ verdict: 'valid' }, { kind: 'pay' }] as const) {
        const p = await plan({ allProfiles: true, ...common });
        expect(p).not.toMatch(/exchanges_(profile_)?(verdict|kind)/);
        expect(p).toMatch(/Index Scan Backward using exchanges_(pkey|direction)/);
      }
      // A deposit in one profile: the plain deposit index, the profile tested on its few rows.
      expect(await plan({ profile: 'b', depositId: 'dep-8' })).toMatch(/exchanges_deposit/);
    } finally {
      await c.end();
    }
  });
});
