// Promise 5: the local API cannot be reached by a web page or a callback. test/integration/web/guards.test.ts
// covers no token, wrong tokens, a foreign Host, a foreign Origin, Origin null and a request to the proxy
// port whose PATH names the API. Here, what it leaves out, against the real desk, proxy and web UI: the
// proxy asked to act as a forward proxy toward the API port (absolute-form target, sandbox and forward
// mode), a proxy whose upstream IS the API port, CORS preflights, more rebinding Host forms, a token in
// a cookie or in the Origin's place. Through all of them, the count of calls that reached the desk stays 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src-main/core/signing';
import { startStack, TEST_SECRET, type Stack } from '../e2e/helpers/stack';
import { tempDirForSuite } from '../helpers/temp';
import { rawRoundTrip } from '../helpers/raw-socket';
import { apiCall, rawRequest, tokenOf } from '../integration/web/http-raw';
import { send, startProxy } from '../integration/proxy/helpers';
import { closeAfterTest } from '../helpers/closing';
import { startRecorder } from '../helpers/servers';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

let stack: Stack;
let token: string;
let uiPort: number;
let renderer: { dir: string; remove(): void };

beforeAll(async () => {
  renderer = tempDirForSuite('wager-desk-renderer-');
  mkdirSync(join(renderer.dir, 'assets'));
  writeFileSync(join(renderer.dir, 'index.html'), '<!doctype html><title>Wager Desk</title>');
  stack = await startStack({ rendererDir: renderer.dir });
  token = tokenOf(stack.ui.url);
  uiPort = stack.ui.port;
});

afterAll(async () => {
  await stack?.close();
  renderer?.remove();
});

/** Raw bytes to a port; the answer's text. The API keeps connections alive, so stop at its first answer. */
const raw = async (port: number, bytes: string): Promise<string> => (await rawRoundTrip(port, bytes, { halfClose: false, firstAnswerOnly: true })).text;

const bearer = () => ({ authorization: `Bearer ${token}` });
const statusLine = (answer: string): number => Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0);

describe('the local API from a web page or a callback', () => {
  it('the capture proxy is no forward proxy: an absolute-form request toward the API port is only a capture', async () => {
    const before = stack.ui.stats().apiCalls;
    const proxyPort = Number(new URL(stack.proxyUrl).port);
    const target = `http://127.0.0.1:${uiPort}/api/getStatus`;
    const answer = await raw(
      proxyPort,
      `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1:${uiPort}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]`,
    );
    expect(answer).not.toContain('"dataDir"');
    expect(answer).not.toContain('"activeProfile"');
    expect(stack.ui.stats().apiCalls).toBe(before);
    const page = await stack.desk.listExchanges({ direction: 'all', kind: 'other' });
    expect(page.ok && page.value.items.some((x) => x.path.includes('/api/getStatus'))).toBe(true);
  });

  it('in forward mode too: the absolute-form target goes to the configured upstream, never to the API', async () => {
    const upstream = closeAfterTest(await startRecorder((_req, _body, res) => res.end('{"from":"upstream"}')));
    const own = await startProxy(stack.desk, { upstream: upstream.url });
    try {
      const before = stack.ui.stats().apiCalls;
      const answer = await raw(
        own.port,
        `POST http://127.0.0.1:${uiPort}/api/listProfiles HTTP/1.1\r\nHost: 127.0.0.1:${uiPort}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]`,
      );
      expect(answer).toContain('{"from":"upstream"}');
      expect(upstream.received).toHaveLength(1);
      expect(stack.ui.stats().apiCalls).toBe(before);
    } finally {
      // Back to the sandbox proxy the stack started with.
      await stack.desk.startProxy({ port: Number(new URL(stack.proxyUrl).port), upstream: '' });
    }
  });

  it('a proxy forwarding to the API port itself delivers callbacks that the API refuses', async () => {
    const own = await startProxy(stack.desk, { upstream: `http://127.0.0.1:${uiPort}` });
    try {
      const before = stack.ui.stats();
      const body = '[]';
      // What a callback sender controls: path, headers (a guessed token), body.
      for (const path of ['/api/getStatus', '/api/listProfiles', '/api/exportHar', '/api/events']) {
        const reply = await send(own.url, {
          path,
          body,
          headers: {
            'content-type': 'application/json',
            authorization: 'Bearer guessed-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
            'x-server-authorization': sign(Buffer.from(body), TEST_SECRET),
          },
        });
        expect(reply.status, path).toBe(401);
      }
      const after = stack.ui.stats();
      expect(after.apiCalls).toBe(before.apiCalls);
      expect(after.refused - before.refused).toBe(4);
    } finally {
      await stack.desk.startProxy({ port: Number(new URL(stack.proxyUrl).port), upstream: '' });
    }
  });

  it('refuses CORS preflights and never grants a cross-origin read', async () => {
    const before = stack.ui.stats().apiCalls;
    for (const origin of ['http://evil.test', 'null', `http://127.0.0.1:${uiPort + 1}`]) {
      const preflight = await rawRequest(uiPort, {
        method: 'OPTIONS',
        path: '/api/getStatus',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      expect(preflight.status, origin).toBeGreaterThanOrEqual(400);
      expect(preflight.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(preflight.headers['access-control-allow-headers'], origin).toBeUndefined();
    }
    // Not even the page's own successful call carries a CORS grant: there is nothing to share cross-origin.
    const own = await apiCall(uiPort, 'getStatus', [], { ...bearer(), origin: `http://127.0.0.1:${uiPort}` });
    expect(own.status).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBeUndefined();
    expect(stack.ui.stats().apiCalls).toBe(before + 1);
  });

  it('refuses the token anywhere but the Authorization header, and more rebinding Host forms, before the desk', async () => {
    const before = stack.ui.stats();
    const cases: Array<{ name: string; headers: Record<string, string>; status: number }> = [
      { name: 'the token in a cookie', headers: { cookie: `token=${token}` }, status: 401 },
      { name: 'the token as a Basic password', headers: { authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` }, status: 401 },
      { name: 'the token with a different scheme case and padding', headers: { authorization: `bearer  ${token}` }, status: 401 },
      { name: 'a rebinding name under a foreign domain', headers: { ...bearer(), host: `localhost.evil.test:${uiPort}` }, status: 403 },
      { name: 'a rebinding name that embeds the address', headers: { ...bearer(), host: `127.0.0.1.nip.io:${uiPort}` }, status: 403 },
      { name: 'a Host without the port', headers: { ...bearer(), host: '127.0.0.1' }, status: 403 },
      { name: 'a Host with a trailing dot', headers: { ...bearer(), host: `localhost.:${uiPort}` }, status: 403 },
      { name: 'a Host with userinfo', headers: { ...bearer(), host: `evil.test@127.0.0.1:${uiPort}` }, status: 403 },
      { name: 'a foreign https Origin of the same host name', headers: { ...bearer(), origin: `https://127.0.0.1:${uiPort}` }, status: 403 },
      { name: 'a foreign Origin on the event stream', headers: { ...bearer(), origin: 'http://evil.test' }, status: 403 },
    ];
    for (const c of cases) {
      const path = c.name.includes('event stream') ? '/api/events' : '/api/getStatus';
      const res = path === '/api/events' ? await rawRequest(uiPort, { path, headers: c.headers }) : await apiCall(uiPort, 'getStatus', [], c.headers);
      expect(res.status, c.name).toBe(c.status);
      expect(res.body, c.name).not.toContain('"dataDir"');
    }
    // An HTTP/1.0 request without any Host at all.
    const hostless = await raw(
      uiPort,
      `POST /api/getStatus HTTP/1.0\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]`,
    );
    expect(statusLine(hostless)).toBe(403);
    const after = stack.ui.stats();
    expect(after.apiCalls).toBe(before.apiCalls);
    expect(after.refused - before.refused).toBe(cases.length + 1);
  });
});
