// A desk on a team's database reads through its pool of reading connections: the UI's list, a detail,
// the counts, the live follow and a re-verification at once, with the books reset and the log pruned
// meanwhile. Each caller has a connection to itself while it runs (node-postgres' own queue for a query
// sent while another runs is deprecated, and interleaves one caller's statements into another's
// transaction); the long and transactional changes take a connection of their own. Its own file: Node warns of a deprecation once
// a process.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { sign } from '../../../src-main/core/signing';
import type { DeskEvents } from '../../../src-main/shared/desk-api';
import { must } from '../../helpers/must';
import { migratedDatabase, teamKeyFile, usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';
import { send, startProxy } from '../proxy/helpers';

const server = usePostgres();
const SECRET = 'one-reader-secret-5d1e';

function teamDesk(url: string): Desk {
  const desk = createDesk({ home: tempDir(), database: url, keyFile: teamKeyFile(url) });
  onTestFinished(() => desk.close());
  return desk;
}

describe("a team desk's reading connection", () => {
  it('serves every caller at once, one at a time, with no query sent while another runs', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    onTestFinished(() => void process.off('warning', onWarning));

    const url = await migratedDatabase(server());
    const desk = teamDesk(url);
    must(await desk.saveProfile({ name: 'p', secret: SECRET }));
    must(await desk.useProfile('p'));
    // A listener: the desk follows the log on the same reading connection.
    const heard: number[] = [];
    desk.on((name, payload) => {
      if (name === 'exchange') heard.push((payload as DeskEvents['exchange']).exchange.id);
    });
    const proxy = await startProxy(desk);
    const pay = (i: number) => {
      const body = JSON.stringify({ userId: `u-${i % 3}`, depositId: `d-${i}`, currency: 'EUR', amount: 100 });
      return { path: '/platform/pay', body, headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), SECRET) } };
    };
    for (let i = 0; i < 13; i++) expect((await send(proxy.url, pay(i))).status).toBe(200);
    const ids = must(await desk.listExchanges({ limit: 50 })).items.map((x) => x.id);
    expect(ids).toHaveLength(13);

    const calls: Array<Promise<{ ok: boolean }>> = [];
    for (let round = 0; round < 6; round++) {
      calls.push(
        desk.listExchanges({ limit: 5 }),
        desk.listExchanges({ userId: 'u-1' }),
        desk.getExchange(ids[round]!),
        desk.getTimeline(`d-${round}`),
        desk.getStatus(),
        desk.followExchanges({ afterId: 0 }),
        desk.getSandboxState(),
      );
      if (round === 2) calls.push(desk.resetSandbox(), desk.reverify({}), desk.prune({ keep: 10 }));
    }
    const results = await Promise.all(calls);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    await expect.poll(() => heard.length).toBeGreaterThanOrEqual(13);
    expect(must(await desk.listExchanges({ limit: 50 })).items.map((x) => x.id)).toEqual(ids.slice(0, 10));
    expect(warnings.filter((w) => /already executing a query/.test(w))).toEqual([]);
  });
});
