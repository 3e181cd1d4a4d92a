// Changing a running proxy never drops traffic: a change that cannot be applied (a port in use, a bad
// upstream, a bad certificate) leaves the proxy answering exactly as before and says why; an upstream
// change keeps the listener and lets requests in flight finish with the old upstream; a port change
// answers on the new port before the old one closes; Stop then Start restores the whole configuration.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sign } from '../../../src-main/core/signing';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { startRecorder } from '../../helpers/servers';
import { tempDir } from '../../helpers/temp';
import { captures, json, latest, send, startProxy, type Reply } from './helpers';

const PAY = (depositId: string) => JSON.stringify({ userId: 'u-1', depositId, currency: 'USD', amount: 4 });

/** An upstream that holds each request until the test releases it, and says when one arrived. */
async function holdingUpstream(name: string) {
  const held: ServerResponse[] = [];
  let arrived: (() => void) | null = null;
  const recorder = closeAfterTest(
    await startRecorder((_req, _body, res) => {
      held.push(res);
      arrived?.();
    }),
  );
  return {
    url: recorder.url,
    received: recorder.received,
    /** Resolves once `count` requests are held. */
    holding: (count: number) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (held.length >= count) resolve();
        };
        arrived = check;
        check();
      }),
    release: () => {
      for (const res of held.splice(0)) res.end(JSON.stringify({ from: name }));
    },
  };
}

/** A port held by another listener for the length of the test. */
async function busyPort(): Promise<number> {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  closeAfterTest({ close: () => new Promise<void>((resolve) => blocker.close(() => resolve())) });
  return (blocker.address() as net.AddressInfo).port;
}

function sendTls(base: string, ca: Buffer, body: string, headers: Record<string, string> = {}): Promise<Reply> {
  const url = new URL('/platform/pay', base);
  return new Promise((resolve, reject) => {
    const req = https.request({ hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', ca, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, statusMessage: res.statusMessage ?? '', headers: [], body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('a running proxy, changed', () => {
  it('refuses a port in use, says why, and keeps answering on its old port', async () => {
    const desk = openDesk();
    const proxy = await startProxy(desk);
    const busy = await busyPort();
    const refused = await desk.startProxy({ port: busy });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('proxy-error');
    expect(refused.error.message).toContain(`Port ${busy} on 127.0.0.1 is already in use`);
    expect(refused.error.message).toContain(`the proxy still runs on ${proxy.url} as before`);
    const status = must(await desk.getStatus()).proxy;
    expect(status).toMatchObject({ running: true, url: proxy.url, port: proxy.port });
    expect((await send(proxy.url, { body: PAY('after-busy') })).status).toBe(200);
  });

  it('refuses a bad upstream URL and a bad certificate without touching the running listener', async () => {
    const desk = openDesk();
    const home = tempDir();
    const proxy = await startProxy(desk);
    const badUpstream = await desk.startProxy({ upstream: 'ftp://operator.example' });
    expect(badUpstream).toMatchObject({ ok: false, error: { code: 'bad-input' } });

    const certFile = join(home, 'cert.pem');
    const keyFile = join(home, 'key.pem');
    writeFileSync(certFile, 'not a certificate');
    writeFileSync(keyFile, 'not a key');
    const badCert = await desk.startProxy({ tls: { certFile, keyFile } });
    expect(badCert.ok).toBe(false);
    if (badCert.ok) return;
    expect(badCert.error.message).toContain(`The TLS certificate ${certFile} is not a PEM certificate`);
    expect(badCert.error.message).toContain('The change was not applied');

    const missing = await desk.startProxy({ tls: { certFile: join(home, 'absent.pem'), keyFile } });
    expect(missing).toMatchObject({ ok: false, error: { code: 'bad-input' } });

    expect(must(await desk.getStatus()).proxy).toMatchObject({ running: true, url: proxy.url, mode: 'sandbox', tls: null });
    expect((await send(proxy.url, { body: PAY('after-bad') })).status).toBe(200);
  });

  it('a certificate whose key is another one is refused', async () => {
    const desk = openDesk();
    const a = tempDir();
    const b = tempDir();
    // Two self-signed certificates made by the desk, crossed.
    must(await openDesk(a).startProxy({ port: 0, tls: { selfSigned: ['127.0.0.1'] } }));
    must(await openDesk(b).startProxy({ port: 0, tls: { selfSigned: ['127.0.0.1'] } }));
    const crossed = await desk.startProxy({ port: 0, tls: { certFile: join(a, 'tls', 'proxy-cert.pem'), keyFile: join(b, 'tls', 'proxy-key.pem') } });
    expect(crossed).toMatchObject({ ok: false, error: { code: 'bad-input', message: expect.stringContaining('is not the key of the certificate') } });
  });

  it('an upstream change keeps the port, and a request in flight finishes with the old upstream', async () => {
    const desk = openDesk();
    const oldUpstream = await holdingUpstream('old');
    const newUpstream = closeAfterTest(await startRecorder((_req, _body, res) => res.end(JSON.stringify({ from: 'new' }))));
    const proxy = await startProxy(desk, { upstream: oldUpstream.url });

    const inFlight = send(proxy.url, { body: PAY('in-flight') });
    await oldUpstream.holding(1);
    const changed = must(await desk.startProxy({ upstream: newUpstream.url }));
    expect(changed.proxy).toMatchObject({ running: true, port: proxy.port, mode: 'forward', upstream: `${newUpstream.url}/` });

    const after = await send(proxy.url, { body: PAY('after-change') });
    expect(json(after)).toEqual({ from: 'new' });
    oldUpstream.release();
    const first = await inFlight;
    expect(first.status).toBe(200);
    expect(json(first)).toEqual({ from: 'old' });
    expect(newUpstream.received.map((r) => JSON.parse(r.body.toString()).depositId)).toEqual(['after-change']);
    expect((await captures(desk)).map((c) => [c.depositId, c.response?.status])).toEqual([
      ['after-change', 200],
      ['in-flight', 200],
    ]);
  });

  it('a change of limits on the same port applies to the next requests without re-binding', async () => {
    const desk = openDesk();
    const proxy = await startProxy(desk);
    const header = { 'x-padding': 'a'.repeat(4096) };
    expect((await send(proxy.url, { body: PAY('big-header-before'), headers: header })).status).toBe(200);
    const changed = must(await desk.startProxy({ maxHeaderBytes: 2048, maxBodyBytes: 64 }));
    expect(changed.proxy.port).toBe(proxy.port);
    expect((await send(proxy.url, { body: PAY('big-header-after'), headers: header })).status).toBe(431);
    expect((await send(proxy.url, { body: 'x'.repeat(65) })).status).toBe(413);
    expect((await send(proxy.url, { body: '{}' })).status).toBe(400);
  });

  it('a port change answers on the new port while the old one finishes its request in flight, then closes', async () => {
    const desk = openDesk();
    const upstream = await holdingUpstream('operator');
    const proxy = await startProxy(desk, { upstream: upstream.url });
    const inFlight = send(proxy.url, { body: PAY('before-move') });
    await upstream.holding(1);

    const moved = must(await desk.startProxy({ port: 0 }));
    expect(moved.proxy.port).not.toBe(proxy.port);
    const onNew = send(moved.proxy.url!, { body: PAY('on-new-port') });
    await upstream.holding(2);
    upstream.release();
    expect((await inFlight).status).toBe(200);
    expect((await onNew).status).toBe(200);
    // The old listener no longer accepts.
    await expect(send(proxy.url, { body: PAY('old-port') })).rejects.toThrow();
  });

  it('Stop then Start restores the whole configuration: limits, secret, TLS, public URL, upstream', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    const upstream = closeAfterTest(await startRecorder((_req, _body, res) => res.end('{"status":"ok"}')));
    const first = must(
      await desk.startProxy({
        port: 0,
        upstream: upstream.url,
        maxBodyBytes: 2048,
        secret: { label: '--secret-env WD', secret: 'the-secret' },
        tls: { selfSigned: ['127.0.0.1', 'localhost'] },
        publicUrl: 'https://desk.example.net',
      }),
    ).proxy;
    must(await desk.stopProxy());
    const again = must(await desk.startProxy({})).proxy;
    expect(again).toMatchObject({
      running: true,
      mode: 'forward',
      upstream: first.upstream,
      secretSource: '--secret-env WD',
      publicUrl: 'https://desk.example.net',
      callbackUrls: { pay: 'https://desk.example.net/platform/pay', results: 'https://desk.example.net/platform/results' },
      tls: { source: 'self-signed', fingerprint256: first.tls!.fingerprint256, hosts: ['127.0.0.1', 'localhost'] },
    });
    expect(again.limits?.maxBodyBytes).toBe(2048);
    expect(again.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('switches a port from HTTP to HTTPS; the self-signed certificate is kept (key 0600) and reused', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    const proxy = await startProxy(desk, { secret: { label: 'test', secret: 's3' } });
    const secure = must(await desk.startProxy({ tls: { selfSigned: ['127.0.0.1'] } })).proxy;
    expect(secure.url).toBe(`https://127.0.0.1:${proxy.port}`);
    const certFile = join(home, 'tls', 'proxy-cert.pem');
    const keyFile = join(home, 'tls', 'proxy-key.pem');
    expect(secure.tls).toMatchObject({ source: 'self-signed', certFile, hosts: ['127.0.0.1'] });
    expect(secure.tls!.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    const body = PAY('over-tls');
    const reply = await sendTls(secure.url!, readFileSync(certFile), body, { 'x-server-authorization': sign(Buffer.from(body), 's3') });
    expect(reply.status).toBe(200);
    const row = await latest(desk);
    expect(row).toMatchObject({ depositId: 'over-tls', scheme: 'https', signature: { verdict: 'valid' } });

    // The same hosts: the same certificate. Other hosts: a new one.
    must(await desk.stopProxy());
    const reused = must(await desk.startProxy({})).proxy;
    expect(reused.tls!.fingerprint256).toBe(secure.tls!.fingerprint256);
    const other = must(await desk.startProxy({ tls: { selfSigned: ['127.0.0.1', 'desk.internal'] } })).proxy;
    expect(other.tls!.fingerprint256).not.toBe(secure.tls!.fingerprint256);
    expect(other.tls!.hosts).toEqual(['127.0.0.1', 'desk.internal']);

    // Back to plain HTTP on the same port: captures say so.
    const plain = must(await desk.startProxy({ tls: null })).proxy;
    expect(plain.url).toBe(`http://127.0.0.1:${other.port}`);
    expect((await send(plain.url!, { body: PAY('plain') })).status).toBe(401);
    expect(await latest(desk)).toMatchObject({ depositId: 'plain', scheme: 'http' });
  });

  it("shows the callback URLs: the proxy's own without a public URL, the profile's public URL and prefix with one", async () => {
    const desk = openDesk();
    const proxy = await startProxy(desk);
    expect(must(await desk.getStatus()).proxy.callbackUrls).toEqual({
      base: proxy.url,
      pay: `${proxy.url}/platform/pay`,
      results: `${proxy.url}/platform/results`,
    });
    must(await desk.saveProfile({ name: 'acme', callbackPrefix: '/api/acme', publicUrl: 'https://acme-desk.trycloudflare.com/' }));
    must(await desk.useProfile('acme'));
    expect(must(await desk.getStatus()).proxy).toMatchObject({
      publicUrl: 'https://acme-desk.trycloudflare.com',
      callbackUrls: { pay: 'https://acme-desk.trycloudflare.com/api/acme/pay', results: 'https://acme-desk.trycloudflare.com/api/acme/results' },
    });
    expect(await desk.startProxy({ publicUrl: 'not a url' })).toMatchObject({ ok: false, error: { code: 'bad-input' } });
  });
});
