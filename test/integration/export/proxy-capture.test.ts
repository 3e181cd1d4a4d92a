// The whole path with the real capture proxy: a signed callback is captured, copied as cURL and sent
// by curl back to the proxy (a second capture, byte-identical), and exported to HAR and imported into
// another desk with the same verdict.
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { har as validateHar } from 'har-validator';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { sign } from '../../../src-main/core/signing';
import { tempDir } from '../../helpers/temp';
import { exchangeOf, exchangesOf } from '../../helpers/log-reads';

const SECRET = 'proxy-path-secret';

function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('captures from the real proxy', () => {
  it('copy as cURL sends the same bytes and signature again; HAR carries them to another desk', async () => {
    const desk = createDesk({ home: tempDir() });
    const other = createDesk({ home: tempDir() });
    try {
      expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
      expect((await other.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
      const started = await desk.startProxy({ port: 0, host: '127.0.0.1', upstream: null });
      if (!started.ok) throw new Error(started.error.message);
      const proxyUrl = started.value.proxy.url!;
      const body = Buffer.concat([
        Buffer.from('{"userId":"p-user","depositId":"p-dep","currency":"EUR","amount":3,"memo":"'),
        Buffer.from([0xc0, 0x00, 0x27]),
        Buffer.from('"}'),
      ]);
      const status = await post(`${proxyUrl}/platform/pay?src=test`, body, {
        'Content-Type': 'application/json',
        'X-Server-Authorization': sign(body, SECRET),
        'X-Trace': 'first',
      });
      expect(status).toBeGreaterThan(0);
      const first = (await exchangesOf(desk, {}))[0];
      expect(first?.signature.verdict).toBe('valid');

      const command = await desk.curlFor(first!.id);
      if (!command.ok) throw new Error(command.error.message);
      expect(command.value).toContain(`curl -X POST '${proxyUrl}/platform/pay?src=test'`);
      await new Promise<void>((resolve, reject) =>
        execFile('bash', ['-c', `${command.value} --silent --output /dev/null`], (err) => (err ? reject(err) : resolve())),
      );
      const again = (await exchangesOf(desk, {}))[0]!;
      expect(again.id).not.toBe(first!.id);
      const a = await exchangeOf(desk, first!.id);
      const b = await exchangeOf(desk, again.id);
      expect(b.request.bodyBase64).toBe(a.request.bodyBase64);
      expect(b.signature.verdict).toBe('valid');
      expect([b.request.path, b.request.query]).toEqual(['/platform/pay', 'src=test']);
      const named = (x: typeof a, n: string) => x.request.headers.find(([k]) => k.toLowerCase() === n)?.[1];
      expect(named(b, 'x-trace')).toBe('first');
      expect(named(b, 'x-server-authorization')).toBe(named(a, 'x-server-authorization'));

      // Not UTF-8, so the body has no key fields to filter by: export every capture (oldest first).
      const har = await desk.exportHar({});
      if (!har.ok) throw new Error(har.error.message);
      const doc = JSON.parse(har.value);
      await expect(validateHar(doc)).resolves.toBeTruthy();
      expect(doc.log.entries[0].request.url).toBe(`${proxyUrl}/platform/pay?src=test`);
      const imported = await other.importHar(har.value, {});
      if (!imported.ok) throw new Error(imported.error.message);
      const copy = await exchangeOf(other, imported.value.ids[0]!);
      expect(copy.request.bodyBase64).toBe(a.request.bodyBase64);
      expect(copy.request.headers).toEqual(a.request.headers);
      expect(copy.signature.verdict).toBe('valid');
      expect(copy.response?.status).toBe(a.response?.status);
      expect(imported.value.imported).toBe(2);
    } finally {
      await desk.close();
      await other.close();
    }
  });
});
