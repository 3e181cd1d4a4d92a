// Following a team's log while several proxies commit out of id order: a row whose group commits between
// the follow's read and its search for the ids that read skipped is still handed on (the next follow
// finds it), never passed over by the cursor. The interleaving is made exact by committing that row from
// another connection just before the search runs.
import type pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { connectPostgres } from '../../../src-main/core/store/postgres';
import { PgExchangeReads } from '../../../src-main/core/store/postgres/exchange-reads';
import { migratedDatabase, usePostgres } from '../../helpers/postgres';

const server = usePostgres();

const insertRow = (c: pg.Client, id: number, path: string) =>
  c.query(
    `INSERT INTO exchanges (id, direction, kind, origin, at, method, path, req_headers, req_body, req_size, res_status)
     VALUES ($1, 'inbound', 'pay', 'proxy', $2, 'POST', $3, '[]', '', 0, 200)`,
    [id, new Date().toISOString(), path],
  );

describe("following a team's log", () => {
  it('hands on a row that commits between the read and the search for skipped ids', async () => {
    const url = await migratedDatabase(server());
    const reading = await connectPostgres(url, { numbers: true });
    const proxy = await connectPostgres(url);
    onTestFinished(async () => {
      await reading.end();
      await proxy.end();
    });
    // One proxy committed id 3; another drew id 2 and is still committing it.
    await insertRow(proxy, 3, '/platform/pay/three');
    let committedMeanwhile = false;
    const interleaved = {
      query: async (...args: Parameters<pg.Client['query']>) => {
        const text = typeof args[0] === 'string' ? args[0] : '';
        if (text.includes('generate_series') && !committedMeanwhile) {
          committedMeanwhile = true;
          await insertRow(proxy, 2, '/platform/pay/two');
        }
        return (reading.query as (...a: unknown[]) => unknown)(...args);
      },
    } as unknown as pg.Client;
    let client: pg.Client = interleaved;
    const reads = new PgExchangeReads(async () => client);

    const first = await reads.follow({ direction: 'all', allProfiles: true }, 0, []);
    expect(committedMeanwhile).toBe(true);
    expect(first.completed.map((x) => x.id)).toEqual([3]);
    expect(first.afterId).toBe(3);

    client = reading;
    const second = await reads.follow({ direction: 'all', allProfiles: true }, first.afterId, first.pending);
    expect(second.completed.map((x) => [x.id, x.path])).toEqual([[2, '/platform/pay/two']]);
  });
});
