// The PostgreSQL writer's ids: a group's statement draws the ids of the groups after it, so a busy
// proxy's group is one round trip (the statement), not two; the rows still get distinct ids, each
// committed, and a gap left by ids drawn and never used is not a row.
import type pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CaptureTx } from '../../../src-main/core/store/contract/capture-writer';
import { connectPostgres, PgCaptureWriter } from '../../../src-main/core/store/postgres';
import { inboundRow } from '../../helpers/exchanges';
import { migratedDatabase, usePostgres } from '../../helpers/postgres';

const server = usePostgres();

/** A writer whose connections note each statement's name (or text) as it is sent. */
function countingWriter(url: string): { writer: PgCaptureWriter; sent: string[] } {
  const sent: string[] = [];
  const writer = new PgCaptureWriter({
    async connect() {
      const client = await connectPostgres(url, { numbers: true });
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const first = args[0] as string | pg.QueryConfig;
        sent.push(typeof first === 'string' ? first : (first.name ?? first.text));
        return query(...args);
      };
      return client;
    },
  });
  onTestFinished(() => writer.close());
  return { writer, sent };
}

/** One group of `n` new rows; their ids, once committed. */
function group(writer: PgCaptureWriter, n: number, tag: string): Promise<number[]> {
  return Promise.all(
    Array.from(
      { length: n },
      (_, i) =>
        new Promise<number>((resolve, reject) =>
          writer.write(
            (tx: CaptureTx) =>
              tx.rows.record(
                inboundRow({ keys: { depositId: `${tag}-${i}`, userId: 'u1', result: null, gameId: null, amount: 5, currency: 'USD', tournamentId: null } }),
              ),
            (err, id) => (err ? reject(err as Error) : resolve(id as number)),
          ),
        ),
    ),
  );
}

describe('ids drawn by the group statement for the next groups', () => {
  it('commits a busy writer group after group in one statement each, every row under its own id', async () => {
    const url = await migratedDatabase(server());
    const { writer, sent } = countingWriter(url);
    const first = await group(writer, 4, 'a');
    const reservesAfterFirst = sent.filter((s) => s === 'wd-reserve-ids').length;
    expect(reservesAfterFirst).toBe(1);
    const later = [...(await group(writer, 4, 'b')), ...(await group(writer, 3, 'c')), ...(await group(writer, 4, 'd'))];
    // The groups after the first took the ids their predecessors drew: no round trip of their own.
    expect(sent.filter((s) => s === 'wd-reserve-ids').length).toBe(reservesAfterFirst);
    expect(sent.filter((s) => s === 'wd-commit-group').length).toBe(4);
    const ids = [...first, ...later];
    expect(new Set(ids).size).toBe(15);
    const c = await connectPostgres(url, { numbers: true });
    try {
      const rows = (await c.query<{ id: number; deposit_id: string }>('SELECT id::float8 AS id, deposit_id FROM exchanges ORDER BY id')).rows;
      expect(rows.map((r) => r.id).sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
      expect(rows.map((r) => r.deposit_id).filter((d) => d.startsWith('d-')).length).toBe(4);
    } finally {
      await c.end();
    }
  });

  it('draws the ids a larger group lacks in a round trip of its own, after the spare ones', async () => {
    const url = await migratedDatabase(server());
    const { writer, sent } = countingWriter(url);
    const small = await group(writer, 2, 'a');
    const large = await group(writer, 6, 'b');
    expect(sent.filter((s) => s === 'wd-reserve-ids').length).toBe(2);
    // The spare ids (drawn after the first group's rows) come first, the rest after them.
    expect(Math.min(...large)).toBeGreaterThan(Math.max(...small));
    expect(new Set([...small, ...large]).size).toBe(8);
  });
});
