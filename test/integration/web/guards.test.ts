// The web mode's guards, against a real desk, its real capture proxy and the real web UI server.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESK_METHODS } from '../../../src-main/shared/desk-api';
import { startWebUi } from '../../../src-main/cli/web';
import { sendResult } from '../../../src-main/cli/web/api-routes';
import { TEXT_VALUE_HEADER } from '../../../src-main/shared/web-wire';
import { TEST_SECRET, sendCallback, startStack, type Stack } from '../../e2e/helpers/stack';
import { must } from '../../helpers/must';
import { tempDirForSuite } from '../../helpers/temp';
import { apiCall, rawRequest, resultOf, tokenOf } from './http-raw';

let stack: Stack;
let token: string;
let port: number;
let renderer: { dir: string; remove(): void };

beforeAll(async () => {
  // A stand-in for the built UI: the guards do not depend on what the page holds.
  renderer = tempDirForSuite('wager-desk-renderer-');
  mkdirSync(join(renderer.dir, 'assets'));
  writeFileSync(join(renderer.dir, 'index.html'), '<!doctype html><title>Wager Desk</title><script type="module" src="./assets/app.js"></script>');
  writeFileSync(join(renderer.dir, 'assets', 'app.js'), 'console.log("app");');
  writeFileSync(join(renderer.dir, '..', 'outside.txt'), 'not to be served');
  stack = await startStack({ rendererDir: renderer.dir });
  token = tokenOf(stack.ui.url);
  port = stack.ui.port;
});

afterAll(async () => {
  await stack?.close();
  renderer?.remove();
});

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

describe('web mode guards', () => {
  it('prints a loopback URL whose fragment carries a token of at least 128 bits', () => {
    expect(stack.ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+$/);
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
  });

  it('refuses every unauthenticated or foreign request, and none of them reaches the desk', async () => {
    const before = stack.ui.stats();
    expect(before.apiCalls).toBe(0);
    const wrongSameLength = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    const cases: Array<{ name: string; send: () => ReturnType<typeof apiCall>; status: number }> = [
      { name: 'no token', send: () => apiCall(port, 'getStatus', [], {}), status: 401 },
      { name: 'a wrong token of the same length', send: () => apiCall(port, 'getStatus', [], bearer(wrongSameLength)), status: 401 },
      { name: 'a short wrong token', send: () => apiCall(port, 'getStatus', [], bearer('abc')), status: 401 },
      { name: 'the token without "Bearer"', send: () => apiCall(port, 'getStatus', [], { authorization: token }), status: 401 },
      {
        name: 'the token as a query parameter',
        send: () => rawRequest(port, { method: 'POST', path: `/api/getStatus?token=${token}`, headers: { 'content-type': 'application/json' }, body: '[]' }),
        status: 401,
      },
      { name: 'a foreign Host (DNS rebinding)', send: () => apiCall(port, 'getStatus', [], { ...bearer(token), host: `evil.test:${port}` }), status: 403 },
      { name: 'a loopback Host on another port', send: () => apiCall(port, 'getStatus', [], { ...bearer(token), host: `127.0.0.1:${port + 1}` }), status: 403 },
      { name: 'a foreign Origin', send: () => apiCall(port, 'getStatus', [], { ...bearer(token), origin: 'http://evil.test' }), status: 403 },
      { name: 'Origin null', send: () => apiCall(port, 'getStatus', [], { ...bearer(token), origin: 'null' }), status: 403 },
      {
        name: 'a loopback Origin on another port',
        send: () => apiCall(port, 'getStatus', [], { ...bearer(token), origin: `http://127.0.0.1:${port + 1}` }),
        status: 403,
      },
      { name: 'a method not in DESK_METHODS (close)', send: () => apiCall(port, 'close', [], bearer(token)), status: 404 },
      { name: 'a method not in DESK_METHODS (on)', send: () => apiCall(port, 'on', [], bearer(token)), status: 404 },
      { name: 'a method not in DESK_METHODS (ctx)', send: () => apiCall(port, 'ctx', [], bearer(token)), status: 404 },
      { name: 'an inherited name (constructor)', send: () => apiCall(port, 'constructor', [], bearer(token)), status: 404 },
      { name: 'an inherited name (__proto__)', send: () => apiCall(port, '__proto__', [], bearer(token)), status: 404 },
      { name: 'the event stream without a token', send: () => rawRequest(port, { path: '/api/events' }), status: 401 },
      { name: 'the event stream with the token in the query', send: () => rawRequest(port, { path: `/api/events?token=${token}` }), status: 401 },
      { name: 'a static file for a foreign Host', send: () => rawRequest(port, { path: '/', headers: { host: `evil.test:${port}` } }), status: 403 },
    ];
    for (const c of cases) {
      const res = await c.send();
      expect(res.status, c.name).toBe(c.status);
      const body = JSON.parse(res.body) as { ok: boolean; error: { code: string } };
      expect(body.ok, c.name).toBe(false);
    }
    const after = stack.ui.stats();
    expect(after.apiCalls).toBe(0);
    expect(after.refused - before.refused).toBe(cases.length);
  });

  it('answers a proper call from its own page with the method Result', async () => {
    const before = stack.ui.stats().apiCalls;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const res = await apiCall(port, 'getStatus', [], { ...bearer(token), host, origin: `http://${host}` });
      expect(res.status).toBe(200);
      const body = JSON.parse(res.body) as { ok: true; value: { proxy: { url: string } } };
      expect(body.ok).toBe(true);
      expect(body.value.proxy.url).toBe(stack.proxyUrl);
    }
    expect(stack.ui.stats().apiCalls).toBe(before + 2);
  });

  it("answers a text value (a HAR) as the body itself, the desk's own text, and a failure as the Result's JSON", async () => {
    const body = JSON.stringify({ userId: 'wire-user', depositId: 'wire-deposit', amount: 5, currency: 'EUR' });
    expect((await sendCallback(stack.proxyUrl, '/platform/pay', body, { secret: TEST_SECRET })).status).toBe(200);
    const har = await apiCall(port, 'exportHar', [{ depositId: 'wire-deposit' }], bearer(token));
    expect(har.status).toBe(200);
    expect(har.headers[TEXT_VALUE_HEADER]).toBe('text');
    expect(har.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(har.body).toBe(must(await stack.desk.exportHar({ depositId: 'wire-deposit' })));
    expect((JSON.parse(har.body) as { log: { entries: unknown[] } }).log.entries).toHaveLength(1);

    const missing = await apiCall(port, 'exportHar', [{ reportId: 987_654 }], bearer(token));
    expect(missing.status).toBe(200);
    expect(missing.headers[TEXT_VALUE_HEADER]).toBeUndefined();
    expect(JSON.parse(missing.body)).toEqual({ ok: false, error: { code: 'not-found', message: 'No conformance report with id 987654.' } });
  });

  it('answers a text that UTF-8 cannot carry (a lone surrogate) as JSON, which keeps it exact', async () => {
    const server = createServer((_req, res) => sendResult(res, { ok: true, value: 'half \ud83d of a pair' }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await rawRequest((server.address() as AddressInfo).port, { path: '/' });
      expect(res.headers[TEXT_VALUE_HEADER]).toBeUndefined();
      expect(res.body).toBe('{"ok":true,"value":"half \\ud83d of a pair"}');
      expect(JSON.parse(res.body)).toEqual({ ok: true, value: 'half \ud83d of a pair' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('routes every DESK_METHODS name, and only POST', async () => {
    // Methods with side effects (stopProxy, resetSandbox) run against a desk of their own.
    const own = await startStack({ rendererDir: renderer.dir });
    try {
      const ownToken = tokenOf(own.ui.url);
      for (const method of DESK_METHODS) {
        // No arguments: each method answers with a Result (a bad-input error where arguments are required), never a 404.
        const res = await apiCall(own.ui.port, method, [], bearer(ownToken));
        expect([200, 400], method).toContain(res.status);
        // A text value is the body itself, marked (only on a 200); every other answer is a Result's JSON.
        expect(typeof (await resultOf(res, method)).ok, method).toBe('boolean');
      }
      expect(own.ui.stats().apiCalls).toBe(DESK_METHODS.length);
      const get = await rawRequest(own.ui.port, { path: '/api/getStatus', headers: bearer(ownToken) });
      expect(get.status).toBe(405);
    } finally {
      await own.close();
    }
  });

  it('checks the arguments before the desk: a wrong type is bad-input naming it, and nothing is stored', async () => {
    const cases: Array<[string, unknown[], string]> = [
      ['saveProfile', [{ name: 'guard-x', allowSelfSigned: 'no' }], 'input.allowSelfSigned'],
      ['saveProfile', [{ name: 'guard-x', production: 'yes' }], 'input.production'],
      ['saveProfile', [{ name: 'guard-x', operatorUrl: 42 }], 'input.operatorUrl'],
      ['getExchange', ['1 OR 1=1'], 'id'],
      ['listExchanges', [{ limit: '10' }], 'query.limit'],
      ['prune', [{ keep: 'all' }], 'options.keep'],
    ];
    for (const [method, args, named] of cases) {
      const res = await apiCall(port, method, args, bearer(token));
      expect(res.status, method).toBe(400);
      const body = JSON.parse(res.body) as { ok: false; error: { code: string; message: string } };
      expect(body.error.code, method).toBe('bad-input');
      expect(body.error.message, method).toContain(named);
    }
    const profiles = JSON.parse((await apiCall(port, 'listProfiles', [], bearer(token))).body) as { ok: true; value: Array<{ name: string }> };
    expect(profiles.value.map((p) => p.name)).not.toContain('guard-x');
    // Absent optional arguments arrive as null inside the JSON array: still a valid call.
    const page = JSON.parse((await apiCall(port, 'listExchanges', [null], bearer(token))).body) as { ok: boolean };
    expect(page.ok).toBe(true);
  });

  it('refuses a body that is not a JSON array of arguments', async () => {
    const notJson = await rawRequest(port, {
      method: 'POST',
      path: '/api/getStatus',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    const notArray = await rawRequest(port, {
      method: 'POST',
      path: '/api/getStatus',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(notArray.status).toBe(400);
    const form = await rawRequest(port, { method: 'POST', path: '/api/getStatus', headers: { ...bearer(token), 'content-type': 'text/plain' }, body: '[]' });
    expect(form.status).toBe(415);
  });

  it('serves the UI with security headers and never the token', async () => {
    const index = await rawRequest(port, { path: '/' });
    expect(index.status).toBe(200);
    expect(index.headers['content-security-policy']).toContain("default-src 'self'");
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    expect(index.headers['content-security-policy']).toContain("connect-src 'self'");
    expect(index.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.headers['referrer-policy']).toBe('no-referrer');
    expect(index.headers['cache-control']).toBe('no-store');
    expect(index.body).not.toContain(token);
    const script = await rawRequest(port, { path: '/assets/app.js' });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).not.toContain(token);
  });

  it('serves nothing outside the renderer folder', async () => {
    for (const path of ['/../outside.txt', '/%2e%2e/outside.txt', '/assets/..%2f..%2foutside.txt', '/missing.js']) {
      const res = await rawRequest(port, { path });
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain('not to be served');
    }
  });

  it('streams desk events to the holder of the token', async () => {
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/api/events`, { headers: bearer(token), signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = (await reader.read()).value ?? '';
    expect(text).toContain(': connected');
    expect(stack.ui.stats().streams).toBe(1);
    const sent = await sendCallback(stack.proxyUrl, '/platform/pay', JSON.stringify({ userId: 'u-sse', depositId: 'd-sse', currency: 'EUR', amount: 1 }), {
      secret: TEST_SECRET,
    });
    expect(sent.status).toBe(200);
    while (!text.includes('"depositId":"d-sse"')) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += chunk.value;
    }
    expect(text).toMatch(/event: exchange\ndata: \{.*"depositId":"d-sse"/);
    controller.abort();
  });

  it('never lets the capture proxy port reach the API: a request there is only a capture', async () => {
    const before = stack.ui.stats().apiCalls;
    const res = await fetch(`${stack.proxyUrl}/api/getStatus`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: '[]',
    });
    const body = await res.text();
    expect(body).not.toContain('"dataDir"');
    expect(stack.ui.stats().apiCalls).toBe(before);
    const page = must(await stack.desk.listExchanges({ direction: 'all', kind: 'other' }));
    expect(page.items.some((x) => x.path === '/api/getStatus')).toBe(true);
  });

  it('listens on loopback only', async () => {
    await expect(startWebUi(stack.desk, { port: 0, host: '0.0.0.0' })).rejects.toThrow(/127\.0\.0\.1 only/);
    const other = await startWebUi(stack.desk, { port: 0, host: 'localhost', rendererDir: renderer.dir });
    try {
      expect(other.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
      expect(tokenOf(other.url)).not.toBe(token);
    } finally {
      await other.close();
    }
  });
});
