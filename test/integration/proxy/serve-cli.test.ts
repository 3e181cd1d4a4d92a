// `wager-desk serve` and `wager-desk sandbox` as a user runs them: the proxy line, captures that the
// rest of the CLI sees, secrets from the environment or a profile, clean shutdown, usage errors.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { sign } from '../../../src-main/core/signing';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp';
import { json, send } from './helpers';
import { closeAfterTest } from '../../helpers/closing';
import { startRecorder } from '../../helpers/servers';
import { failingServe, startServe } from './serve-process';

const PAY = (depositId: string, userId = 'cli-user') => Buffer.from(JSON.stringify({ userId, depositId, currency: 'USD', amount: 4 }));

describe('wager-desk serve', () => {
  it('prints the proxy line, captures, shows them in `captures --json`, and exits 0 on SIGTERM', async () => {
    const home = tempDir();
    const serve = await startServe(['--home', home, 'serve', '--no-ui', '--proxy-port', '0']);
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await serve.waitForStderr('mode: sandbox operator');
    const reply = await send(serve.url, { body: PAY('cli-d-1'), headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(200);
    expect(json(reply)).toMatchObject({ status: 'ok', balance: 996 });
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });

    const listed = await runCli(['--home', home, 'captures', '--json']);
    expect(listed.code).toBe(0);
    const items = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      direction: 'inbound',
      kind: 'pay',
      method: 'POST',
      path: '/platform/pay',
      depositId: 'cli-d-1',
      userId: 'cli-user',
      signature: { verdict: 'missing' },
      response: { status: 200 },
    });

    const sandbox = await runCli(['--home', home, 'sandbox', '--json']);
    expect(JSON.parse(sandbox.stdout)).toMatchObject({ users: [{ userId: 'cli-user', balance: 996 }], deposits: [{ depositId: 'cli-d-1', amount: 4 }] });
  });

  it('without --no-ui prints the ui: line with its per-run token, and stops cleanly on SIGINT', async () => {
    const serve = await startServe(['--home', tempDir(), 'serve', '--proxy-port', '0']);
    const line = await serve.waitForStdout(/^ui: /);
    expect(line).toMatch(/^ui: http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{40,}$/);
    expect(await serve.stop('SIGINT')).toEqual({ code: 0, signal: null });
  });

  it('--secret-env verifies with that secret: valid accepted, mismatch refused 401', async () => {
    const serve = await startServe(['--home', tempDir(), 'serve', '--no-ui', '--proxy-port', '0', '--secret-env', 'WD_TEST_SECRET'], {
      WD_TEST_SECRET: 'env-secret',
    });
    const body = PAY('cli-d-2');
    expect((await send(serve.url, { body, headers: { 'x-server-authorization': sign(body, 'env-secret') } })).status).toBe(200);
    expect((await send(serve.url, { body, headers: { 'x-server-authorization': sign(body, 'other') } })).status).toBe(401);
    expect((await serve.stop('SIGTERM')).code).toBe(0);
  });

  it('a restart from the UI keeps the secret and the limits serve was started with', async () => {
    const home = tempDir();
    const serve = await startServe(['--home', home, 'serve', '--proxy-port', '0', '--secret-env', 'WD_TEST_SECRET', '--max-body', '2048'], {
      WD_TEST_SECRET: 'env-secret',
    });
    const ui = await serve.waitForStdout(/^ui: (\S+)$/m);
    const uiUrl = new URL(/^ui: (\S+)$/m.exec(ui)![1]!);
    const token = uiUrl.hash.replace('#token=', '');
    // What the status bar's Reconfigure sends: only the fields the user touched.
    const restarted = await fetch(new URL('/api/startProxy', uiUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ port: 0 }]),
    });
    const status = (await restarted.json()) as { ok: true; value: { proxy: { url: string; secretSource: string; limits: { maxBodyBytes: number } } } };
    expect(status.ok).toBe(true);
    expect(status.value.proxy.url).not.toBe(serve.url);
    expect(status.value.proxy.secretSource).toBe('--secret-env WD_TEST_SECRET');
    expect(status.value.proxy.limits.maxBodyBytes).toBe(2048);
    const url = status.value.proxy.url;

    const unsigned = PAY('restart-unsigned');
    expect((await send(url, { body: unsigned })).status).toBe(401);
    const signed = PAY('restart-signed');
    expect((await send(url, { body: signed, headers: { 'x-server-authorization': sign(signed, 'env-secret') } })).status).toBe(200);
    expect((await send(url, { body: Buffer.alloc(4096, 0x61) })).status).toBe(413);
    expect((await serve.stop('SIGTERM')).code).toBe(0);
    // The sandbox booked only the signed pay.
    const books = JSON.parse((await runCli(['--home', home, 'sandbox', '--json'])).stdout) as { deposits: Array<{ depositId: string }> };
    expect(books.deposits.map((d) => d.depositId)).toEqual(['restart-signed']);
  });

  it("--profile verifies with the profile's secret and forwards to its upstream", async () => {
    const home = tempDir();
    const upstream = closeAfterTest(await startRecorder((_req, _body, res) => res.end('{"from":"operator"}')));
    const desk = createDesk({ home });
    await desk.saveProfile({ name: 'active-one' });
    await desk.saveProfile({ name: 'staging', callbackPrefix: '/staging', secret: 'profile-secret', upstream: upstream.url });
    await desk.close();
    const serve = await startServe(['--home', home, 'serve', '--no-ui', '--proxy-port', '0', '--profile', 'staging']);
    await serve.waitForStderr(`mode: forward to ${upstream.url}/`);
    const body = PAY('cli-d-3');
    const reply = await send(serve.url, { body, headers: { 'x-server-authorization': sign(body, 'profile-secret') } });
    expect(reply.body.toString()).toBe('{"from":"operator"}');
    expect(upstream.received[0]!.body.equals(body)).toBe(true);
    await serve.stop('SIGTERM');
    // Narrowed to staging, the proxy takes every request as staging's (the active profile's list holds none of them).
    const listed = JSON.parse((await runCli(['--home', home, 'captures', '--json', '--profile', 'staging'])).stdout) as Array<{
      signature: { verdict: string };
      profile: string | null;
    }>;
    expect(listed[0]).toMatchObject({ signature: { verdict: 'valid' }, profile: 'staging' });
    expect(JSON.parse((await runCli(['--home', home, 'captures', '--json'])).stdout)).toEqual([]);
  });

  it('refuses bad flags and a busy port with exit 2 and a reason', async () => {
    const home = tempDir();
    const unknownProfile = await failingServe(['--home', home, 'serve', '--no-ui', '--proxy-port', '0', '--profile', 'nope']);
    expect(unknownProfile.code).toBe(2);
    expect(unknownProfile.stderr).toMatch(/No profile named "nope"/);
    const badUrl = await failingServe(['--home', home, 'serve', '--no-ui', '--proxy-port', '0', '--upstream', 'ftp://x']);
    expect(badUrl.code).toBe(2);
    const missingEnv = await failingServe(['--home', home, 'serve', '--no-ui', '--proxy-port', '0', '--secret-env', 'WD_NOT_SET_ANYWHERE']);
    expect(missingEnv.code).toBe(2);

    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as net.AddressInfo).port;
      const busy = await failingServe(['--home', home, 'serve', '--no-ui', '--proxy-port', String(port)]);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toMatch(/already in use/);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

describe('wager-desk sandbox', () => {
  it('sets balances, the starting balance, lists them, and resets', async () => {
    const home = tempDir();
    expect((await runCli(['--home', home, 'sandbox', 'set-balance', 'alice', '12.5'])).code).toBe(0);
    expect((await runCli(['--home', home, 'sandbox', 'set-starting-balance', '50'])).code).toBe(0);
    const listed = await runCli(['--home', home, 'sandbox']);
    expect(listed.stdout).toContain('starting balance: 50');
    expect(listed.stdout).toMatch(/alice\s+12\.5/);
    expect(JSON.parse((await runCli(['--home', home, 'sandbox', '--json'])).stdout)).toEqual({
      startingBalance: 50,
      users: [{ userId: 'alice', balance: 12.5 }],
      deposits: [],
    });
    expect((await runCli(['--home', home, 'sandbox', 'reset'])).code).toBe(0);
    expect(JSON.parse((await runCli(['--home', home, 'sandbox', '--json'])).stdout)).toMatchObject({ users: [] });
    const bad = await runCli(['--home', home, 'sandbox', 'set-balance', 'alice', 'lots']);
    expect(bad.code).toBe(2);
  });
});
