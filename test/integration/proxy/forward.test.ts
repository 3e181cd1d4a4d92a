// Forward mode against a stand-in operator: headers out and back, the upstream's own answer relayed
// unchanged, and the 502 / 504 paths recorded on the capture.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { sign } from '../../../src-main/core/signing';
import { closedPort, json, latest, send, startProxy } from './helpers';
import { openDesk } from '../../helpers/desk';
import { closeAfterTest } from '../../helpers/closing';
import { startRecorder } from '../../helpers/servers';

describe('forward mode', () => {
  it("sends the headers as received minus hop-by-hop ones, with the upstream's Host, to upstream + path + query", async () => {
    const upstream = closeAfterTest(await startRecorder((_req, _body, res) => res.end('ok')));
    const desk = openDesk();
    const { url, port } = await startProxy(desk, { upstream: `${upstream.url}/operator/base/` });
    const body = '{"userId":"u","depositId":"d","currency":"USD","amount":1}';
    await send(url, {
      path: '/platform/pay?trace=1&x=%20',
      body,
      headers: [
        'Host',
        `127.0.0.1:${port}`,
        'X-Server-Authorization',
        sign(Buffer.from(body), 's'),
        'Content-Type',
        'application/json',
        'X-Dup',
        'one',
        'x-dup',
        'two',
        'Connection',
        'keep-alive, X-Drop-Me',
        'X-Drop-Me',
        'listed in Connection',
        'Keep-Alive',
        'timeout=5',
        'Proxy-Authorization',
        'Basic abc',
        'TE',
        'trailers',
        'Upgrade',
        'h2c',
        'Content-Length',
        String(body.length),
      ],
    });
    const got = upstream.received[0]!;
    expect(got.url).toBe('/operator/base/platform/pay?trace=1&x=%20');
    expect(got.body.toString()).toBe(body);
    const pairs: string[][] = [];
    for (let i = 0; i < got.rawHeaders.length; i += 2) pairs.push([got.rawHeaders[i]!, got.rawHeaders[i + 1]!]);
    const names = pairs.map(([n]) => n!.toLowerCase());
    for (const gone of ['x-drop-me', 'keep-alive', 'proxy-authorization', 'te', 'upgrade']) expect(names).not.toContain(gone);
    expect(pairs.find(([n]) => n!.toLowerCase() === 'host')![1]).toBe(`127.0.0.1:${upstream.port}`);
    // The end-to-end headers keep their case and order, duplicates included.
    const kept = pairs.filter(([n]) => ['x-server-authorization', 'content-type', 'x-dup', 'content-length'].includes(n!.toLowerCase()));
    expect(kept).toEqual([
      ['X-Server-Authorization', sign(Buffer.from(body), 's')],
      ['Content-Type', 'application/json'],
      ['X-Dup', 'one'],
      ['x-dup', 'two'],
      ['Content-Length', String(body.length)],
    ]);
    // The capture keeps the headers as they arrived, the proxy's own Host included.
    const row = await latest(desk);
    expect(row.request.headers).toContainEqual(['Host', `127.0.0.1:${port}`]);
    expect(row.request.headers).toContainEqual(['X-Drop-Me', 'listed in Connection']);
    expect(row.request.query).toBe('trace=1&x=%20');
  });

  it("relays the upstream's status, reason, headers and body unchanged, and records them", async () => {
    const answer = Buffer.from('{"errors":[{"code":"INSUFFICIENT_BALANCE","isClientSafe":true}]}\n');
    const upstream = closeAfterTest(
      await startRecorder((_req, _body, res) => {
        res.sendDate = false;
        res.writeHead(402, 'Not Enough Money', [
          'Content-Type',
          'application/json',
          'Set-Cookie',
          'a=1',
          'Set-Cookie',
          'b=2',
          'X-Operator',
          'stand-in',
          'Content-Length',
          String(answer.length),
        ]);
        res.end(answer);
      }),
    );
    const desk = openDesk();
    const { url } = await startProxy(desk, { upstream: upstream.url });
    const reply = await send(url, { body: '{}' });
    expect(reply.status).toBe(402);
    expect(reply.statusMessage).toBe('Not Enough Money');
    expect(reply.body.equals(answer)).toBe(true);
    const relayed = reply.headers.filter(([n]) => !['connection', 'keep-alive'].includes(n.toLowerCase()));
    expect(relayed).toEqual([
      ['Content-Type', 'application/json'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['X-Operator', 'stand-in'],
      ['Content-Length', String(answer.length)],
    ]);
    const row = await latest(desk);
    expect(row.response?.status).toBe(402);
    expect(Buffer.from(row.response!.bodyBase64, 'base64').equals(answer)).toBe(true);
    expect(row.response!.headers).toContainEqual(['X-Operator', 'stand-in']);
    expect(row.error).toBeNull();
  });

  it('reuses connections to the upstream (keep-alive)', async () => {
    const sockets = new Set<unknown>();
    const upstream = closeAfterTest(
      await startRecorder((req, _body, res) => {
        sockets.add(req.socket);
        res.end('ok');
      }),
    );
    const desk = openDesk();
    const { url } = await startProxy(desk, { upstream: upstream.url });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 30; i++) expect((await send(url, { body: `{"i":${i}}`, agent })).status).toBe(200);
    agent.destroy();
    expect(sockets.size).toBe(1);
  });

  it('answers 502 in the error shape when the upstream is unreachable, and records the error', async () => {
    const port = await closedPort();
    const desk = openDesk();
    const { url } = await startProxy(desk, { upstream: `http://127.0.0.1:${port}` });
    const reply = await send(url, { body: '{"depositId":"d-502"}' });
    expect(reply.status).toBe(502);
    expect(json(reply)).toEqual({ errors: [{ code: 'UPSTREAM_UNREACHABLE', isClientSafe: false }] });
    const row = await latest(desk);
    expect(row.error).toMatch(/unreachable.*ECONNREFUSED/);
    expect(row.response?.status).toBe(502);
    expect(row.depositId).toBe('d-502');
  });

  it('answers 504 when the upstream is slower than the timeout, and records the error', async () => {
    const upstream = closeAfterTest(
      await startRecorder(() => {
        // never answers
      }),
    );
    const desk = openDesk();
    const { url } = await startProxy(desk, { upstream: upstream.url, upstreamTimeoutMs: 300 });
    const started = Date.now();
    const reply = await send(url, { body: '{}' });
    expect(reply.status).toBe(504);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(json(reply)).toEqual({ errors: [{ code: 'UPSTREAM_TIMEOUT', isClientSafe: false }] });
    const row = await latest(desk);
    expect(row.error).toMatch(/did not answer within 300 ms/);
    expect(row.response?.status).toBe(504);
    expect(upstream.received.length).toBe(1);
  });

  it("takes the active profile's upstream by default; upstream null forces the sandbox", async () => {
    const upstream = closeAfterTest(await startRecorder((_req, _body, res) => res.end('from upstream')));
    const desk = openDesk();
    await desk.saveProfile({ name: 'staging', upstream: upstream.url });
    const started = await desk.startProxy({ port: 0 });
    expect(started.ok && started.value.proxy).toMatchObject({ running: true, mode: 'forward', upstream: `${upstream.url}/` });
    const proxyUrl = started.ok ? started.value.proxy.url! : '';
    expect((await send(proxyUrl, { body: '{}' })).body.toString()).toBe('from upstream');

    const sandbox = await desk.startProxy({ port: 0, upstream: null });
    expect(sandbox.ok && sandbox.value.proxy.mode).toBe('sandbox');
    const reply = await send(sandbox.ok ? sandbox.value.proxy.url! : '', { body: '{}' });
    expect(reply.status).toBe(400); // the sandbox refuses an empty pay
    expect(upstream.received.length).toBe(1);
  });
});
