// Several proxies, one log: two `serve` processes on one PostgreSQL, each with its own data directory
// and the team's key (the profiles are the team's, in the database), and a third process's `tail` that prints what both capture, live. Ids are
// global; `status` counts them all; a proxy killed with SIGKILL under load leaves every callback it
// acknowledged in the log.
import { describe, expect, it } from 'vitest';
import { sign } from '../../../src-main/core/signing';
import { connectPostgres } from '../../../src-main/core/store/postgres';
import type { ExchangeSummary } from '../../../src-main/shared/model';
import { runCli } from '../../helpers/cli';
import { createDesk } from '../../../src-main/core/desk';
import { must } from '../../helpers/must';
import { migratedDatabase, teamKeyFile, usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';
import { startTail } from '../cli/tail-process';
import { send } from '../proxy/helpers';
import { startServe } from '../proxy/serve-process';

const server = usePostgres();
const SECRET = 'two-proxies-secret';

/** The team's profile, saved once from any desk on the database with the team's key. */
async function teamProfile(url: string): Promise<void> {
  const desk = createDesk({ home: tempDir(), database: url, keyFile: teamKeyFile(url) });
  try {
    must(await desk.saveProfile({ name: 'acme', secret: SECRET }));
  } finally {
    await desk.close();
  }
}

/** A proxy host: a data directory of its own, the team's database (in the environment: a password is never an argument) and key. */
const serveOn = (url: string) =>
  startServe(['--home', tempDir(), '--key-file', teamKeyFile(url), 'serve', '--proxy-port', '0', '--no-ui'], { WAGER_DESK_DATABASE_URL: url });

const signedPay = (depositId: string) => {
  const body = JSON.stringify({ userId: `u-${depositId}`, depositId, currency: 'EUR', amount: 100 });
  return { path: '/platform/pay', body, headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), SECRET) } };
};

describe('two serve processes on one PostgreSQL', () => {
  it("each captures into the one log; a third process's tail prints both, live; counts agree", async () => {
    const url = await migratedDatabase(server());
    await teamProfile(url);
    const [a, b] = await Promise.all([serveOn(url), serveOn(url)]);
    await a.waitForStderr('exchange log: PostgreSQL at postgres://postgres:***@');
    const watcher = tempDir();
    const tail = await startTail(['--home', watcher, '--json'], { WAGER_DESK_DATABASE_URL: url });

    const deposits = Array.from({ length: 24 }, (_, i) => `d-both-${i}`);
    const replies = await Promise.all(deposits.map((d, i) => send((i % 2 === 0 ? a : b).url, signedPay(d))));
    expect(replies.map((r) => r.status)).toEqual(deposits.map(() => 200));

    const rows = (await tail.waitForLines(deposits.length)).map((l) => JSON.parse(l) as ExchangeSummary);
    expect(rows.map((r) => r.depositId).sort()).toEqual([...deposits].sort());
    expect(new Set(rows.map((r) => r.id)).size).toBe(deposits.length);
    for (const r of rows) expect(r).toMatchObject({ kind: 'pay', signature: { verdict: 'valid' }, response: { status: 200 }, profile: 'acme' });

    const status = await runCli(['--home', watcher, 'status', '--json'], { env: { WAGER_DESK_DATABASE_URL: url } });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ counts: { inbound: deposits.length }, exchangeLog: expect.stringMatching(/^PostgreSQL at /) });
    expect(status.stdout).not.toContain(new URL(url).password);

    expect(await tail.stop('SIGINT')).toBe(0);
    expect(tail.lines()).toHaveLength(deposits.length);
    await Promise.all([a.stop('SIGTERM'), b.stop('SIGTERM')]);
  });

  it('a proxy killed with SIGKILL under load: every callback it acknowledged is in the log, and the other carries on', async () => {
    const url = await migratedDatabase(server());
    await teamProfile(url);
    const [a, b] = await Promise.all([serveOn(url), serveOn(url)]);
    const acknowledged: string[] = [];
    let n = 0;
    // Eight callers keep the proxy busy; the kill lands while requests are in flight.
    const caller = async (): Promise<void> => {
      for (;;) {
        const d = `d-kill-${n++}`;
        const status = await send(a.url, signedPay(d)).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 0) return;
        if (status >= 200 && status < 300) acknowledged.push(d);
      }
    };
    const callers = Array.from({ length: 8 }, () => caller());
    await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(50);
    const killed = await a.stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    await Promise.all(callers);

    const c = await connectPostgres(url);
    try {
      const stored = new Set((await c.query<{ deposit_id: string }>('SELECT deposit_id FROM exchanges')).rows.map((r) => r.deposit_id));
      expect(acknowledged.filter((d) => !stored.has(d))).toEqual([]);
    } finally {
      await c.end();
    }
    expect((await send(b.url, signedPay('d-after-kill'))).status).toBe(200);
    await b.stop('SIGTERM');
  });
});
