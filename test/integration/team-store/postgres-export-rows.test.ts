// An export of a team's log has its rows read by the export thread (store/postgres/thread-export-reads.ts),
// never by the proxy's thread: those rows, and the entries the thread builds of them, must be the rows
// read here and the entries built of them, for every kind of column: blobs with every byte, texts with
// quotes, control characters and emoji, NaN and the infinities in double columns.
import { describe, expect, it } from 'vitest';
import { harEntriesText } from '../../../src-main/core/export/har-entries-text';
import { HarThread } from '../../../src-main/core/export/har-thread';
import { connectPostgres } from '../../../src-main/core/store/postgres/connect';
import { PgExchangeReads } from '../../../src-main/core/store/postgres/exchange-reads';
import { ThreadExportReads } from '../../../src-main/core/store/postgres/thread-export-reads';
import { migratedDatabase, usePostgres } from '../../helpers/postgres';

const server = usePostgres();

const EVERY_BYTE = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const AWKWARD_TEXT = 'quote " backslash \\ tab \t line\nseparator \u2028 control \u0001 emoji 🃏 é';

const INSERT = `INSERT INTO exchanges (direction, kind, origin, at, method, path, query, req_headers, req_body, req_size, truncated,
  verdict, findings, deposit_id, amount, res_status, res_headers, res_body, duration_ms, source_id, profile)
  VALUES ('inbound', 'pay', 'proxy', $1, 'POST', '/acme/pay', $2, $3, $4, $5, $6, 'valid', '[]', $7, $8::float8, $9, $10, $11, $12::float8, $13, 'acme')
  RETURNING id`;

describe('rows read for an export on PostgreSQL', () => {
  it('read by the export thread, are the rows read here and make the same HAR entries', async () => {
    const url = await migratedDatabase(server());
    const client = await connectPostgres(url, { numbers: true });
    try {
      const insert = async (values: unknown[]): Promise<number> => (await client.query<{ id: number }>(INSERT, values)).rows[0]!.id;
      const first = await insert([
        '2026-12-03T10:00:00.000Z',
        '?a=1&b=%20',
        '[["x-a","1"]]',
        EVERY_BYTE,
        2 ** 40,
        true,
        AWKWARD_TEXT,
        '0.1',
        200,
        '[]',
        EVERY_BYTE,
        'NaN',
        null,
      ]);
      const ids = [
        first,
        await insert(['2026-12-03T10:00:01.000Z', '', '[]', Buffer.alloc(0), 0, false, null, 'Infinity', null, null, null, '-Infinity', first]),
        await insert([
          '2026-12-03T10:00:02.000Z',
          AWKWARD_TEXT,
          '[]',
          Buffer.from(AWKWARD_TEXT),
          5,
          false,
          'dep-1',
          '-0',
          500,
          AWKWARD_TEXT,
          Buffer.from('{}'),
          '1e-300',
          first,
        ]),
      ];
      const here = await new PgExchangeReads(async () => client).detailRows(ids);
      expect(here.rows).toHaveLength(3);
      const source = { postgres: { url, statementTimeoutMs: 5_000 } };
      const byId = <T extends { id: number }>(rows: T[]): T[] => [...rows].sort((a, b) => a.id - b.id);
      const there = await new ThreadExportReads().exportRows(source, ids);
      expect(byId(there.rows)).toEqual(byId(here.rows));
      expect(there.derived).toEqual(here.derived);
      expect(here.rows.find((r) => r.id === first)!.req_body.equals(EVERY_BYTE)).toBe(true);
      expect(here.rows.map((r) => r.duration_ms).sort()).toEqual([-Infinity, NaN, 1e-300].sort());
      const entries = harEntriesText({ ids, found: here }, ['acme-secret']);
      // On the export thread, which reads the rows itself where a desk's export leaves them to it.
      const thread = HarThread.create()!;
      try {
        expect(await thread.build({ ids, found: { readThere: source, readHere: async () => here } }, ['acme-secret'])).toBe(entries);
        expect(thread.buildsInPlace()).toBe(false);
      } finally {
        await thread.close();
      }
    } finally {
      await client.end();
    }
  }, 120_000);
});
