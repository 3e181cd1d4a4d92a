// Secrets in odd places and odd forms: a token endpoint that echoes the key in its response headers
// encoded; a secret as a header name, a method, an Expect value; base64, hex, percent (twice), `\u`
// forms in request headers, queries, bodies and the key-field columns, and in an upstream's answer;
// a secret typed into a field that is not one; credentials in a URL. After each, no stored byte (the
// database and its WAL), no HAR export and no detail (what `show --json` prints) holds any form.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Desk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { checkDeskArgs } from '../../src-main/shared/desk-args';
import { openDesk } from '../helpers/desk';
import { must } from '../helpers/must';
import { rawRoundTrip } from '../helpers/raw-socket';
import { closeServer, listen } from '../helpers/servers';
import { tempDir } from '../helpers/temp';
import { startProxy } from '../integration/proxy/helpers';
import { filePlaces } from './helpers/canary';
import { revealed, secretLeaks } from './helpers/secret-oracle';
import { exchangesOf } from '../helpers/log-reads';

// A "/" and a "+" in the signing secret (base64 and URL forms differ from the text); the key is made
// of header-name characters, so that a sender can use it as a header name.
const SECRET = 'odd-sign/Z8q4W2e6R0t+Y1u';
const API_KEY = 'odd-apik.M3n5B7v9C1x-K2j';
const CANARIES = [SECRET, API_KEY];
const b64 = (s: string, prefix = ''): string => Buffer.from(prefix + s).toString('base64');
const hex = (s: string): string => Buffer.from(s).toString('hex');

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await closeServer(s);
});

async function deskWithSecrets(home: string): Promise<Desk> {
  const desk = openDesk(home);
  must(await desk.saveProfile({ name: 'p', secret: SECRET, apiKey: API_KEY, operatorId: 'op-1' }));
  must(await desk.useProfile('p'));
  return desk;
}

async function storedLeaks(desk: Desk, home: string): Promise<string[]> {
  const items = await exchangesOf(desk, { direction: 'all', limit: 1000 });
  const places: Array<{ label: string; bytes: string | Uint8Array }> = [{ label: 'HAR export', bytes: must(await desk.exportHar({})) }];
  for (const x of items) places.push({ label: `detail ${x.id}`, bytes: JSON.stringify(must(await desk.getExchange(x.id))) });
  places.push({ label: 'list', bytes: JSON.stringify(items) });
  return [...secretLeaks(places, CANARIES), ...secretLeaks(filePlaces(home), CANARIES)];
}

async function expectNothingKept(desk: Desk, home: string): Promise<void> {
  expect(await storedLeaks(desk, home)).toEqual([]);
  await desk.close();
  expect(secretLeaks(filePlaces(home), CANARIES)).toEqual([]);
}

function answering(handler: (body: Buffer, req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void): Server {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(Buffer.concat(chunks), req, res));
  });
  servers.push(server);
  return server;
}

describe('secrets in odd places and forms are never kept', () => {
  it('a token endpoint that echoes the API key (base64, hex) and the signing secret (base64) in its response headers', async () => {
    const home = tempDir();
    const desk = await deskWithSecrets(home);
    const service = answering((_body, _req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-key-b64': b64(API_KEY),
        'x-key-hex': hex(API_KEY),
        'x-key-b64-shifted': b64(API_KEY, 'k:'),
        'x-secret-b64': b64(SECRET, 'x'),
      });
      res.end(JSON.stringify({ token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1LTEifQ.' }));
    });
    const base = await listen(service);
    const token = must(await desk.requestToken({ userId: 'u-1', displayName: 'U', baseUrl: base, confirmedBaseUrl: base }));
    expect(token.status).toBe(200);
    expect(secretLeaks([{ label: 'token result', bytes: JSON.stringify(token) }], CANARIES)).toEqual([]);
    await expectNothingKept(desk, home);
  });

  it('a secret as a header name, as the method, and as an Expect value (quoted by the 417 error text)', async () => {
    const home = tempDir();
    const desk = await deskWithSecrets(home);
    const { port } = await startProxy(desk);
    const body = JSON.stringify({ userId: 'u-1', depositId: 'd-name', currency: 'USD', amount: 1 });
    const named = [
      'POST /platform/pay HTTP/1.1',
      'Host: x',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `x-server-authorization: ${sign(Buffer.from(body), SECRET)}`,
      `${API_KEY}: 1`,
      '',
      body,
    ].join('\r\n');
    expect((await rawRoundTrip(port, named)).statuses).toEqual([200]);
    expect((await rawRoundTrip(port, `${API_KEY} /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`)).statuses).toEqual([400]);
    const expectAnswer = await rawRoundTrip(port, `POST /platform/pay HTTP/1.1\r\nHost: x\r\nExpect: ${SECRET}\r\nContent-Length: 2\r\n\r\n`);
    expect(expectAnswer.statuses).toEqual([417]);
    const rows = await exchangesOf(desk, { limit: 10 });
    expect(rows).toHaveLength(3);
    await expectNothingKept(desk, home);
  });

  it('encoded forms in request headers, queries, bodies and the key-field columns; the verdict judged on what was sent', async () => {
    const home = tempDir();
    const desk = await deskWithSecrets(home);
    const { port } = await startProxy(desk);
    const escaped = [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const partlyEscaped = `${SECRET.slice(0, 3)}\\u${SECRET.charCodeAt(3).toString(16).padStart(4, '0')}${SECRET.slice(4)}`;
    const body = `{"userId":"${b64(API_KEY)}","depositId":"${hex(SECRET)}","currency":"USD","amount":1,"note":"${escaped}","n2":"${partlyEscaped}","b":"${b64(SECRET, 'ab')}","h":"${hex(API_KEY).toUpperCase()}"}`;
    const query = `a=${Buffer.from(API_KEY).toString('base64url')}&h=${hex(SECRET)}&d=${encodeURIComponent(encodeURIComponent(SECRET))}`;
    const request = [
      `POST /platform/pay?${query} HTTP/1.1`,
      'Host: x',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `x-server-authorization: ${sign(Buffer.from(body), SECRET)}`,
      `Authorization: Bearer ${b64(SECRET)}`,
      `X-Hex: ${hex(API_KEY)}`,
      `X-Double: ${encodeURIComponent(encodeURIComponent(API_KEY))}`,
      '',
      body,
    ].join('\r\n');
    expect((await rawRoundTrip(port, request)).statuses).toEqual([200]);
    const [row] = await exchangesOf(desk, { limit: 1 });
    // Verified on the bytes as received, stored redacted.
    expect(row).toMatchObject({ kind: 'pay', signature: { verdict: 'valid' } });
    expect(row!.userId).toMatch(/^\[redacted sha256:[0-9a-f]{8}\]$/);
    expect(row!.depositId).toMatch(/^\[redacted sha256:[0-9a-f]{8}\]$/);
    await expectNothingKept(desk, home);
  });

  it("an upstream's answer with them in base64 and hex, headers and body; no tail of a base64 run is left", async () => {
    const home = tempDir();
    const desk = await deskWithSecrets(home);
    const html = `<html><body><p>${b64(SECRET, 'q')}</p><p>${b64(API_KEY, 'zz')}</p><i>${hex(SECRET).toUpperCase()}</i></body></html>`;
    const operator = answering((_body, _req, res) => {
      res.writeHead(200, {
        'content-type': 'text/html',
        'content-length': String(Buffer.byteLength(html)),
        'x-echo': b64(API_KEY),
        'x-echo-hex': hex(SECRET),
        [`x-${hex(API_KEY)}`]: '1',
      });
      res.end(html);
    });
    const upstream = await listen(operator);
    const { port } = await startProxy(desk, { upstream });
    const body = JSON.stringify({ userId: 'u-1', depositId: 'd-up', currency: 'USD', amount: 1 });
    const answer = await rawRoundTrip(
      port,
      `POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nx-server-authorization: ${sign(Buffer.from(body), SECRET)}\r\n\r\n${body}`,
      { firstAnswerOnly: true, halfClose: false },
    );
    expect(answer.statuses).toEqual([200]);
    // The caller gets the upstream's answer as it was; only what is stored is redacted.
    expect(answer.text).toContain(b64(SECRET, 'q'));
    await expect.poll(async () => (await exchangesOf(desk, { limit: 1 }))[0]?.response?.status).toBe(200);
    const [row] = await exchangesOf(desk, { limit: 1 });
    const stored = Buffer.from(must(await desk.getExchange(row!.id)).response!.bodyBase64, 'base64').toString('utf8');
    expect(stored).toMatch(
      /^<html><body><p>\[redacted sha256:[0-9a-f]{8}\]<\/p><p>\[redacted sha256:[0-9a-f]{8}\]<\/p><i>\[redacted sha256:[0-9a-f]{8}\]<\/i>/,
    );
    await expectNothingKept(desk, home);
  });

  it('a value typed into a field that is not a secret is never quoted by the argument check', () => {
    const calls: Array<[Parameters<typeof checkDeskArgs>[0], unknown[]]> = [
      ['saveProfile', [{ name: 'p', amounts: SECRET }]],
      ['saveProfile', [{ name: 'p', production: API_KEY }]],
      ['saveProfile', [{ name: SECRET.length, operatorUrl: 7 }]],
      ['getExchange', [API_KEY]],
      ['saveProfile', [{ name: 'p', amounts: Number('4242424242') }]],
    ];
    for (const [method, args] of calls) {
      const error = checkDeskArgs(method, args);
      expect(error?.code, method).toBe('bad-input');
      expect(revealed(error!.message, SECRET).concat(revealed(error!.message, API_KEY)), error!.message).toEqual([]);
      expect(error!.message).not.toContain('4242424242');
    }
    expect(checkDeskArgs('saveProfile', [{ name: 'p', amounts: SECRET }])!.message).toBe(
      'saveProfile: input.amounts is not valid (Invalid option: expected one of "integer"|"decimal"; got a string of 24 characters).',
    );
  });

  it('credentials in an operator, upstream or service URL are refused, never stored or listed', async () => {
    const home = tempDir();
    const desk = await deskWithSecrets(home);
    for (const field of ['operatorUrl', 'upstream', 'baseUrl', 'publicUrl'] as const) {
      const saved = await desk.saveProfile({ name: 'p', [field]: `http://op:${encodeURIComponent(API_KEY)}@127.0.0.1:9/base` });
      expect(saved.ok, field).toBe(false);
      if (!saved.ok) {
        expect(saved.error.code).toBe('bad-input');
        expect(saved.error.message).toMatch(/cannot carry credentials/);
        expect(secretLeaks([{ label: field, bytes: saved.error.message }], CANARIES)).toEqual([]);
      }
    }
    const started = await desk.startProxy({ port: 0, upstream: `http://${encodeURIComponent(SECRET)}@127.0.0.1:9` });
    expect(started.ok).toBe(false);
    if (!started.ok) expect(secretLeaks([{ label: 'start', bytes: started.error.message }], CANARIES)).toEqual([]);
    expect(secretLeaks([{ label: 'profiles', bytes: JSON.stringify(must(await desk.listProfiles())) }], CANARIES)).toEqual([]);
    await expectNothingKept(desk, home);
  });
});
