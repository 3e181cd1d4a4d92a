import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { httpSend } from '../../../src-main/core/outbound/http-send';
import { closeServer, listen, startRecorder } from '../../helpers/servers';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url));
const body = new TextEncoder().encode('{"amount":10.50}');

describe('httpSend', () => {
  it('sends the exact bytes and headers, with Content-Length set to the body length', async () => {
    const rec = await startRecorder((_req, _body, res) => res.writeHead(201, { 'x-answer': 'yes' }).end('done'));
    try {
      const out = await httpSend({
        url: `${rec.url}/platform/pay?x=1`,
        method: 'POST',
        headers: [
          ['X-Server-Authorization', 'abc'],
          ['content-length', '999'],
          ['X-Twice', '1'],
          ['x-twice', '2'],
        ],
        body,
        timeoutMs: 5000,
      });
      expect(out.ok).toBe(true);
      if (!out.ok) return;
      expect(out.response.status).toBe(201);
      expect(Buffer.from(out.response.body).toString()).toBe('done');
      expect(out.response.headers).toContainEqual(['x-answer', 'yes']);
      const seen = rec.received[0]!;
      expect(seen.url).toBe('/platform/pay?x=1');
      expect(seen.body.equals(Buffer.from(body))).toBe(true);
      const pairs = seen.rawHeaders.reduce<string[][]>((acc, v, i) => (i % 2 ? acc : [...acc, [v, seen.rawHeaders[i + 1]!]]), []);
      expect(pairs).toContainEqual(['X-Server-Authorization', 'abc']);
      expect(pairs.filter(([n]) => n!.toLowerCase() === 'content-length')).toEqual([['Content-Length', String(body.length)]]);
      expect(pairs.filter(([n]) => n!.toLowerCase() === 'x-twice').map(([, v]) => v)).toEqual(['1', '2']);
    } finally {
      await rec.close();
    }
  });

  it('reports a closed port as refused, with a sentence a person understands', async () => {
    const server = createServer();
    const url = await listen(server);
    await closeServer(server);
    const out = await httpSend({ url: `${url}/platform/pay`, method: 'POST', headers: [], body, timeoutMs: 5000 });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.errorCode).toBe('refused');
    expect(out.error).toContain(`Connection refused by ${url.replace('http://', '')}: is the operator's server running?`);
  });

  it('reports an unknown host as dns', async () => {
    const out = await httpSend({ url: 'http://nonexistent.invalid/platform/pay', method: 'POST', headers: [], body, timeoutMs: 10_000 });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.errorCode).toBe('dns');
    expect(out.error).toMatch(/Host not found: nonexistent\.invalid/);
  });

  it('gives up after the timeout and says so in seconds', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const server = createServer((_req, res) => void held.then(() => res.end('late')));
    const url = await listen(server);
    try {
      const out = await httpSend({ url, method: 'POST', headers: [], body, timeoutMs: 300 });
      expect(out.ok).toBe(false);
      if (out.ok) return;
      expect(out.errorCode).toBe('timeout');
      expect(out.error).toContain('within 300 ms');
      expect(out.durationMs).toBeGreaterThanOrEqual(250);
    } finally {
      release();
      await closeServer(server);
    }
  });

  it('returns a 307 as it is and never follows it to another origin', async () => {
    const second = await startRecorder();
    const first = await startRecorder((_req, _body, res) => res.writeHead(307, { location: `${second.url}/platform/pay` }).end());
    try {
      const out = await httpSend({
        url: `${first.url}/platform/pay`,
        method: 'POST',
        headers: [['x-server-authorization', 'f'.repeat(64)]],
        body,
        timeoutMs: 5000,
      });
      expect(out.ok).toBe(true);
      if (!out.ok) return;
      expect(out.response.status).toBe(307);
      expect(out.response.headers.find(([n]) => n.toLowerCase() === 'location')?.[1]).toBe(`${second.url}/platform/pay`);
      expect(first.received).toHaveLength(1);
      expect(second.received).toHaveLength(0);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('refuses a self-signed certificate unless the profile allows it', async () => {
    const server = createHttpsServer({ key: fixture('self-signed.key.pem'), cert: fixture('self-signed.cert.pem') }, (_req, res) => res.end('tls ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/platform/pay`;
    try {
      const strict = await httpSend({ url, method: 'POST', headers: [], body, timeoutMs: 5000 });
      expect(strict.ok).toBe(false);
      if (!strict.ok) {
        expect(strict.errorCode).toBe('tls');
        expect(strict.error).toContain('self-signed');
      }
      const relaxed = await httpSend({ url, method: 'POST', headers: [], body, timeoutMs: 5000, allowSelfSigned: true });
      expect(relaxed.ok && Buffer.from(relaxed.response.body).toString()).toBe('tls ok');
    } finally {
      await closeServer(server);
    }
  });

  it('refuses URLs that are not http or https without throwing', async () => {
    const bad = await httpSend({ url: 'ftp://example.com/x', method: 'POST', headers: [], body, timeoutMs: 1000 });
    const junk = await httpSend({ url: 'not a url', method: 'POST', headers: [], body, timeoutMs: 1000 });
    expect(bad.ok === false && bad.errorCode).toBe('bad-url');
    expect(junk.ok === false && junk.errorCode).toBe('bad-url');
  });
});
