// Every request that reaches the proxy has a row, whatever it is: requests Node's parser refuses before
// there is a request object (431, framing errors, a bad method or version), CONNECT, an Expect the proxy
// cannot meet, HTTP/0.9, and a request whose judging failed. Each is answered AND recorded with what was
// received (bounded, secrets redacted), and the proxy serves the next request. A correctly signed
// callback with over a thousand small headers keeps its signature.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProxyController } from '../../../src-main/core/proxy';
import { sqliteUpkeep } from '../../../src-main/core/store/sqlite/capture-upkeep';
import { GroupCommit } from '../../../src-main/core/store/sqlite/group-commit';
import { MAX_REFUSED_BYTES } from '../../../src-main/core/proxy/refused';
import { SandboxOperator } from '../../../src-main/core/sandbox';
import { sign } from '../../../src-main/core/signing';
import { connectionOf, DATABASE_FILE, openStore } from '../../../src-main/core/store/sqlite';
import type { Desk } from '../../../src-main/core/desk';
import { openDesk } from '../../helpers/desk';
import { closeAfterTest } from '../../helpers/closing';
import { rawRoundTrip } from '../../helpers/raw-socket';
import { tempDir } from '../../helpers/temp';
import { captures, latest, send, startProxy } from '../proxy/helpers';

const SECRET = 'every-row-signing-secret-5d2c';
const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

async function signedDesk(home = tempDir()): Promise<Desk> {
  const desk = openDesk(home);
  await desk.saveProfile({ name: 'p', secret: SECRET });
  await desk.useProfile('p');
  return desk;
}

async function expectServing(desk: Desk, url: string, depositId: string): Promise<void> {
  const body = JSON.stringify({ userId: 'u', depositId, currency: 'USD', amount: 1 });
  const reply = await send(url, { body, headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), SECRET) } });
  expect(reply.status).toBe(200);
  expect((await captures(desk, 1))[0]?.depositId).toBe(depositId);
}

const CASES: Array<{ name: string; bytes: string; status: number; method: string; error: RegExp }> = [
  {
    name: 'Expect other than 100-continue',
    bytes: 'POST /platform/pay HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}',
    status: 417,
    method: 'POST',
    error: /expects "200-ok"/,
  },
  { name: 'CONNECT', bytes: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', status: 405, method: 'CONNECT', error: /tunnel/ },
  {
    name: 'Content-Length with Transfer-Encoding',
    bytes: 'POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    status: 400,
    method: 'POST',
    error: /malformed/,
  },
  {
    name: 'two Content-Lengths',
    bytes: 'POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 7\r\n\r\n{}',
    status: 400,
    method: 'POST',
    error: /malformed/,
  },
  {
    name: 'an obs-fold header',
    bytes: 'POST /platform/pay HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\nContent-Length: 2\r\n\r\n{}',
    status: 400,
    method: 'POST',
    error: /malformed/,
  },
  { name: 'a bad method', bytes: 'P@ST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}', status: 400, method: '', error: /malformed/ },
  { name: 'a bad version', bytes: 'POST /platform/pay HTTP/7.3\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}', status: 400, method: 'POST', error: /malformed/ },
  {
    name: 'headers over the size limit (431)',
    bytes: `POST /platform/pay HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\nContent-Length: 2\r\n\r\n{}`,
    status: 431,
    method: 'POST',
    error: /larger than allowed/,
  },
  { name: 'an HTTP/0.9 request line', bytes: 'GET /platform/pay\r\n\r\n', status: 400, method: 'GET', error: /HTTP\/0\.9/ },
];

describe('every request that reaches the proxy has a row', () => {
  it('refused requests are answered and recorded with what was received, bounded', { timeout: 30_000 }, async () => {
    const desk = await signedDesk();
    const { url, port } = await startProxy(desk);
    let n = 0;
    for (const c of CASES) {
      const before = (await captures(desk, 1000)).length;
      const answer = await rawRoundTrip(port, latin1(c.bytes));
      if (c.status !== 400 || !/HTTP\/0\.9/.test(c.error.source)) expect(answer.statuses, `${c.name}: ${answer.text.slice(0, 80)}`).toEqual([c.status]);
      const rows = await captures(desk, 1000);
      expect(rows.length, c.name).toBe(before + 1);
      const row = await latest(desk);
      expect(row.method, c.name).toBe(c.method);
      expect(row.error, c.name).toMatch(c.error);
      expect(row.response?.status, c.name).toBe(c.status);
      expect(row.signature.verdict, c.name).toBeNull();
      expect(Buffer.from(row.request.bodyBase64, 'base64').length, c.name).toBeLessThanOrEqual(MAX_REFUSED_BYTES);
      await expectServing(desk, url, `after-${++n}`);
    }
  });

  it('a refused request’s raw bytes keep no stored secret, in clear or in Basic credentials', async () => {
    const home = tempDir();
    const desk = await signedDesk(home);
    const { port } = await startProxy(desk);
    const basic = Buffer.from(`op:${SECRET}`).toString('base64');
    await rawRoundTrip(
      port,
      latin1(
        `POST /platform/pay?s=${SECRET} HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${basic}\r\nX-S: ${SECRET}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      ),
    );
    const row = await latest(desk);
    expect(row.response?.status).toBe(400);
    const stored = Buffer.from(row.request.bodyBase64, 'base64').toString('latin1');
    expect(stored).toContain('Content-Length: 3');
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(row)).not.toContain(basic);
    await desk.close();
    for (const suffix of ['', '-wal']) {
      const file = join(home, DATABASE_FILE + suffix);
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue;
      }
      expect(bytes.includes(SECRET), file).toBe(false);
      expect(bytes.includes(basic), file).toBe(false);
    }
  });

  it('a correctly signed callback with 1,100 small headers (under the 16 KiB limit) keeps its signature', async () => {
    const desk = await signedDesk();
    const { port } = await startProxy(desk);
    const body = JSON.stringify({ userId: 'u', depositId: 'many-headers', currency: 'USD', amount: 1 });
    const many = Array.from({ length: 1100 }, (_, i) => `x${i}: v\r\n`).join('');
    expect(many.length).toBeLessThan(16 * 1024);
    const head = `POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${many}x-server-authorization: ${sign(Buffer.from(body), SECRET)}\r\n\r\n`;
    const answer = await rawRoundTrip(port, latin1(head + body));
    expect(answer.statuses).toEqual([200]);
    const row = await latest(desk);
    expect(row.signature.verdict).toBe('valid');
    expect(row.request.headers).toHaveLength(1104);
    expect(row.findings.filter((f) => /headers/.test(f.message))).toEqual([]);
  });

  it('a request whose judging fails is recorded with the error, answered 500, and counted as unjudged', async () => {
    const home = tempDir();
    const store = openStore(home);
    closeAfterTest({ close: () => store.close() });
    const statuses: number[] = [];
    // The secrets cannot be read once the proxy runs (a sealed secret that no longer opens, say): judging throws.
    // The start itself reads them once (a lost key refuses the start), so they fail only after it.
    let running = false;
    const sandbox = new SandboxOperator(store.sandbox);
    const controller = new ProxyController({
      startUpkeep: () => sqliteUpkeep(store),
      explainWriteFailure: () => null,
      openCaptureWriter: () => new GroupCommit(connectionOf(store), { rows: store.exchanges, sandbox: (call) => sandbox.handle(call) }),
      defaults: { maxBodyBytes: 1024 * 1024, upstreamTimeoutMs: 5_000 },
      profileUpstream: () => null,
      profileNames: () => [],
      activeProfile: () => null,
      // The secrets are looked up again when the profiles' version moves: once running, it has moved.
      profilesVersion: () => (running ? 1 : 0),
      signingCandidates: () => {
        if (running) throw new Error('the secret store cannot be read');
        return [];
      },
      apiKeys: () => [],
      callbackSettings: () => ({ prefix: '/platform', amounts: 'integer', currency: 'USD' }),
      statusChanged: (s) => statuses.push(s.unjudged),
    });
    closeAfterTest({ close: () => controller.stop() });
    const started = await controller.start({ port: 0, upstream: null });
    running = true;
    const reply = await send(started.url!, {
      body: '{"userId":"u","depositId":"d","currency":"USD","amount":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(500);
    const [row] = store.exchanges.list({ limit: 1 }).items;
    expect(row?.response?.status).toBe(500);
    expect(row?.error).toMatch(/could not judge this request \(the secret store cannot be read\)/);
    expect(controller.status().unjudged).toBe(1);
    expect(controller.status().warning).toMatch(/1 request\(s\) could not be judged/);
    expect(statuses).toContain(1);
  });
});
