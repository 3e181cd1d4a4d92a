// A 10 KB body nested 5,000 deep with a wrong signature once overflowed the stack in the diagnosis: the
// proxy dropped the request with no answer and no row, `verify` and `import` failed with "Maximum call
// stack size exceeded". Each of the three now judges it: a mismatch, explained as far as it can be.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { closeAfterTest } from '../helpers/closing';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp';
import { latest, send, startProxy } from './proxy/helpers';

const SECRET = 'deep-body-secret';
const body = `{"userId":"u","depositId":"d","currency":"USD","amount":1,"x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
const wrong = sign(Buffer.from(body), 'not-the-secret');

describe('a body nested 5,000 deep with a wrong signature', () => {
  it('the proxy answers 401 and records it, with a diagnosis that says why it did not re-serialize', async () => {
    const desk = closeAfterTest(createDesk({ home: tempDir() }));
    expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
    const { url } = await startProxy(desk);
    const reply = await send(url, { body, headers: { 'content-type': 'application/json', 'x-server-authorization': wrong } });
    expect(reply.status).toBe(401);
    const row = await latest(desk);
    const detail = await desk.getExchange(row.id);
    if (!detail.ok) throw new Error(detail.error.message);
    expect(detail.value.signature?.verdict).toBe('mismatch');
    expect(detail.value.signature?.diagnosis?.tried).toContain('no re-serializations (the body is nested deeper than 64 levels)');
    expect(detail.value.findings.map((f) => f.message)).toContainEqual(expect.stringContaining('nested deeper than 64 levels'));
  });

  it('verify and import --har judge it: exit 1 with the diagnosis, and one imported entry', async () => {
    const home = tempDir();
    expect((await runCli(['--home', home, 'profile', 'set', 'p', '--secret-env', 'S'], { env: { S: SECRET } })).code).toBe(0);
    const verified = await runCli(['--home', home, 'verify', '--signature', wrong, '-'], { input: body });
    expect(verified.code, verified.stderr).toBe(1);
    expect(verified.stdout + verified.stderr).not.toMatch(/call stack|internal error/);
    expect(verified.stdout + verified.stderr).toContain('nested deeper than 64 levels');

    const har = join(tempDir(), 'deep.har');
    const entry = {
      startedDateTime: '2026-01-01T00:00:00.000Z',
      time: 1,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:8787/platform/pay',
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'x-server-authorization', value: wrong }],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: body.length,
        postData: { mimeType: 'application/json', text: body },
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        headers: [],
        cookies: [],
        content: { size: 0, mimeType: 'application/json', text: '' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 0,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    };
    writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: [entry] } }));
    const imported = await runCli(['--home', home, 'import', '--har', har, '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).not.toMatch(/call stack/);
  }, 60_000);
});
