// The team's PostgreSQL stopped and started again (the same data directory, the same port) under a small
// load, and every process carries on by itself: the proxy answers 503 while the database is away and 200
// to every callback sent once it is back (no older failure held against it), its warning clears with the
// first capture committed; `tail` in another process says the log cannot be read, then prints every row
// committed, in order, none twice and none left out; another desk's live list (its `exchange` events)
// hears each row once; `status` says the log cannot be read instead of counting zero.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { sign } from '../../../src-main/core/signing';
import { connectPostgres } from '../../../src-main/core/store/postgres';
import type { ExchangeEvent, ExchangeSummary } from '../../../src-main/shared/model';
import { runCli } from '../../helpers/cli';
import { must } from '../../helpers/must';
import { startOperator } from '../../helpers/operator';
import { migratedDatabase, teamKeyFile, usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';
import { startTail } from '../cli/tail-process';
import { send, startProxy } from '../proxy/helpers';

const server = usePostgres();
const SECRET = 'outage-secret';

async function deskOn(url: string): Promise<Desk> {
  const desk = createDesk({ home: tempDir(), database: url, keyFile: teamKeyFile(url) });
  onTestFinished(() => desk.close());
  return desk;
}

const signedPay = (depositId: string) => {
  const body = JSON.stringify({ userId: 'u-1', depositId, currency: 'EUR', amount: 100 });
  return { path: '/platform/pay', body, headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), SECRET) } };
};

async function committedIds(url: string): Promise<number[]> {
  const c = await connectPostgres(url, { numbers: true });
  try {
    return (await c.query<{ id: number }>('SELECT id FROM exchanges WHERE res_status IS NOT NULL ORDER BY id')).rows.map((r) => r.id);
  } finally {
    await c.end();
  }
}

describe.skipIf(process.env.WAGER_DESK_TEST_DATABASE_URL !== undefined)('the team database restarted under load', () => {
  it('every process carries on by itself, with nothing lost, repeated or refused once it is back', { timeout: 240_000 }, async () => {
    const pg = server();
    const url = await migratedDatabase(pg);
    const operator = await startOperator({ secret: SECRET });
    onTestFinished(() => operator.close());
    const capturing = await deskOn(url);
    must(await capturing.saveProfile({ name: 'acme', secret: SECRET }));
    const watching = await deskOn(url);
    const heard: ExchangeSummary[] = [];
    const off = watching.on((name, payload) => void (name === 'exchange' && heard.push((payload as ExchangeEvent).exchange)), ['exchange']);
    onTestFinished(off);
    const proxy = await startProxy(capturing, { upstream: operator.url });
    // The URL (with its password) in the environment: a password on the command line is refused.
    const tail = await startTail(['--home', tempDir(), '--json'], { WAGER_DESK_DATABASE_URL: url });

    // Two callers, each sending the next callback as soon as the last is answered.
    const answers: Array<{ sentAt: number; status: number }> = [];
    let n = 0;
    let loading = true;
    const caller = async (): Promise<void> => {
      while (loading) {
        const sentAt = performance.now();
        const status = await send(proxy.url, signedPay(`d-${n++}`)).then(
          (r) => r.status,
          () => 0,
        );
        answers.push({ sentAt, status });
      }
    };
    const callers = [caller(), caller()];
    await expect.poll(() => heard.length, { timeout: 20_000 }).toBeGreaterThan(5);

    await pg.pause!();
    await expect.poll(() => answers.filter((a) => a.status === 503).length, { timeout: 20_000 }).toBeGreaterThan(0);
    const away = must(await watching.getStatus());
    expect(away.exchangeLogProblem).toEqual(expect.any(String));
    expect(must(await capturing.getStatus()).proxy.warning).toMatch(/could not be written to the database, so its request was answered 503/);
    const status = await runCli(['--home', tempDir(), 'status'], { env: { WAGER_DESK_DATABASE_URL: url } });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^exchange log: PostgreSQL at .* \(cannot be read now: .*\)$/m);
    expect(status.stdout).toContain('exchanges: not counted (the exchange log cannot be read now)\n');
    await expect.poll(() => tail.stderr(), { timeout: 20_000 }).toMatch(/the exchange log cannot be read now \(/);

    await pg.resume!();
    const back = performance.now();
    await expect.poll(() => answers.filter((a) => a.sentAt > back && a.status === 200).length, { timeout: 20_000 }).toBeGreaterThan(20);
    loading = false;
    await Promise.all(callers);

    // Every callback sent once the database answered again was taken, none refused for an older failure.
    expect(answers.filter((a) => a.sentAt > back && a.status !== 200)).toEqual([]);
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    expect(must(await capturing.getStatus()).proxy.warning).toBeNull();

    const ids = await committedIds(url);
    expect(ids.length).toBe(answers.filter((a) => a.status === 200).length);
    const printed = (await tail.waitForLines(ids.length)).map((l) => (JSON.parse(l) as ExchangeSummary).id);
    // A row is printed once complete, so in the order the answers were recorded: each once, none missing.
    expect([...printed].sort((a, b) => a - b)).toEqual(ids);
    expect(tail.stderr()).toMatch(/the exchange log can be read again: following on after id \d+/);
    await expect.poll(() => heard.map((x) => x.id).sort((a, b) => a - b), { timeout: 20_000 }).toEqual(ids);
    expect(await tail.stop('SIGINT')).toBe(0);
  });
});
