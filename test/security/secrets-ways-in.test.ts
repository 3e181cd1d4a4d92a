// No stored secret kept, in any form, on any way in: a signing secret and an API key, put by a sender
// (or echoed by a service) in request and response headers, Basic credentials, query strings, paths,
// and (for a token service's answers) escaped, URL-encoded, base64 or hex, never reach the data
// directory (the database and its WAL, read as bytes), an exchange's detail, or the HAR, cURL and
// ticket exports. One test per way in: the proxy (sandbox and forward), HAR import, outbound sends.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Desk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import type { ExchangeDetail } from '../../src-main/shared/model';
import { openDesk } from '../helpers/desk';
import { must } from '../helpers/must';
import { rawRoundTrip } from '../helpers/raw-socket';
import { closeServer, listen } from '../helpers/servers';
import { tempDir } from '../helpers/temp';
import { startProxy } from '../integration/proxy/helpers';
import { filePlaces, leaks } from './helpers/canary';
import { exchangesOf } from '../helpers/log-reads';

// A '/' and a '+' in each, so that the JSON `\/` escape and URL encoding differ from the plain text.
const SECRET = 'ways-sign/Q7v2X9pL4mK8+nB3';
const API_KEY = 'ways-apik/R5tY1uI0oP9+aS8d';
const CANARIES = [SECRET, API_KEY];
const basic = (secret: string): string => `Basic ${Buffer.from(`operator:${secret}`).toString('base64')}`;

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

/** A request carrying both canaries in every request place a sender can use. */
function hostileRequest(depositId: string): string {
  const body = JSON.stringify({ userId: 'u-1', depositId, currency: 'USD', amount: 1 });
  const path = `/k/${encodeURIComponent(API_KEY)}/${SECRET.replace('/', '%2F')}/platform/pay`;
  const query = `key=${encodeURIComponent(API_KEY)}&s=${SECRET}`;
  return [
    `POST ${path}?${query} HTTP/1.1`,
    'Host: x',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `x-server-authorization: ${sign(Buffer.from(body), SECRET)}`,
    `Authorization: ${basic(API_KEY)}`,
    `Proxy-Authorization: ${basic(SECRET)}`,
    `X-Custom-Key: ${API_KEY}`,
    `X-Trace: token=${encodeURIComponent(SECRET)}`,
    '',
    body,
  ].join('\r\n');
}

/** Every output a user can take away for the rows of the desk, plus their details. */
async function outputs(desk: Desk, depositIds: string[]): Promise<Array<{ label: string; bytes: string }>> {
  const items = await exchangesOf(desk, { direction: 'all', limit: 1000 });
  const out: Array<{ label: string; bytes: string }> = [{ label: 'HAR export', bytes: must(await desk.exportHar({})) }];
  for (const x of items) {
    out.push({ label: `detail ${x.id}`, bytes: JSON.stringify(must(await desk.getExchange(x.id)) as ExchangeDetail) });
    out.push({ label: `cURL ${x.id}`, bytes: must(await desk.curlFor(x.id)) });
  }
  for (const d of depositIds) out.push({ label: `ticket ${d}`, bytes: must(await desk.ticketBundle(d)) });
  return out;
}

async function expectNoCanary(desk: Desk, home: string, depositIds: string[]): Promise<void> {
  expect(leaks(await outputs(desk, depositIds), CANARIES)).toEqual([]);
  // While open (the WAL holds the newest pages), then closed.
  expect(leaks(filePlaces(home), CANARIES)).toEqual([]);
  await desk.close();
  expect(leaks(filePlaces(home), CANARIES)).toEqual([]);
}

describe('no stored secret kept, in any form, on any way in', () => {
  it('the proxy in sandbox mode: headers, Basic credentials, path and query', async () => {
    const home = tempDir();
    const desk = await deskWithSecrets(home);
    const { port } = await startProxy(desk);
    const answer = await rawRoundTrip(port, hostileRequest('d-sandbox'));
    expect(answer.statuses).toEqual([200]);
    const [row] = await exchangesOf(desk, { limit: 1 });
    expect(row).toMatchObject({ kind: 'pay', depositId: 'd-sandbox', signature: { verdict: 'valid' } });
    await expectNoCanary(desk, home, ['d-sandbox']);
  });

  it('the proxy in forward mode: also the operator’s response headers and body that echo them', async () => {
    const home = tempDir();
    const desk = await deskWithSecrets(home);
    const operator = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const echoed = JSON.stringify({ ok: true, echoed: SECRET, key: API_KEY });
        const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(echoed)) };
        res.writeHead(200, { ...headers, 'x-echo-key': API_KEY, 'www-authenticate': basic(SECRET), 'set-cookie': `k=${encodeURIComponent(API_KEY)}` });
        res.end(echoed);
      });
    });
    servers.push(operator);
    const upstream = await listen(operator);
    const { port } = await startProxy(desk, { upstream });
    const answer = await rawRoundTrip(port, hostileRequest('d-forward'), { firstAnswerOnly: true, halfClose: false });
    expect(answer.statuses).toEqual([200]);
    // The caller gets the operator's answer unchanged; only what is stored is redacted.
    expect(answer.text).toContain(API_KEY);
    await expect.poll(async () => (await exchangesOf(desk, { limit: 1 }))[0]?.response?.status).toBe(200);
    await expectNoCanary(desk, home, ['d-forward']);
  });

  it('HAR import: request headers, Basic credentials, path, query, and the response headers and body', async () => {
    const home = tempDir();
    const desk = await deskWithSecrets(home);
    const body = JSON.stringify({ userId: 'u-1', depositId: 'd-har', currency: 'USD', amount: 1 });
    const entry = {
      startedDateTime: new Date().toISOString(),
      time: 3,
      request: {
        method: 'POST',
        url: `http://x/k/${encodeURIComponent(API_KEY)}/platform/pay?s=${encodeURIComponent(SECRET)}&k=${API_KEY}`,
        httpVersion: 'HTTP/1.1',
        headers: [
          { name: 'Content-Type', value: 'application/json' },
          { name: 'x-server-authorization', value: SECRET },
          { name: 'Authorization', value: basic(API_KEY) },
          { name: 'X-Other', value: `key ${API_KEY}` },
        ],
        queryString: [],
        postData: { mimeType: 'application/json', text: body },
        headersSize: -1,
        bodySize: body.length,
      },
      response: {
        status: 401,
        statusText: 'Unauthorized',
        httpVersion: 'HTTP/1.1',
        headers: [
          { name: 'X-Echo', value: SECRET },
          { name: 'WWW-Authenticate', value: basic(API_KEY) },
        ],
        content: { size: 10, mimeType: 'application/json', text: JSON.stringify({ bad: SECRET, key: API_KEY, hex: Buffer.from(API_KEY).toString('hex') }) },
        headersSize: -1,
        bodySize: 10,
      },
    };
    must(await desk.importHar(JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [entry] } }), { origin: 'hostile.har' }));
    await expectNoCanary(desk, home, ['d-har']);
  });

  it('outbound: a send with them in its headers and query, and token answers that echo the key in every encoding', async () => {
    const home = tempDir();
    const desk = await deskWithSecrets(home);
    const raw = Buffer.from(API_KEY, 'utf8');
    const echoes = [
      JSON.stringify({ key: API_KEY }),
      JSON.stringify({ key: API_KEY }).replace(/\//g, '\\/'),
      `{"key":"${[...API_KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`,
      `key=${encodeURIComponent(API_KEY)}`,
      `{"b64":"${raw.toString('base64')}","b64x":"${Buffer.concat([Buffer.from('x:'), raw]).toString('base64')}","b64url":"${Buffer.concat([Buffer.from('ab:'), raw]).toString('base64url')}"}`,
      `{"hex":"${raw.toString('hex')}","HEX":"${raw.toString('hex').toUpperCase()}"}`,
    ];
    let answerIndex = 0;
    const service = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const echo = echoes[answerIndex++ % echoes.length]!;
        res.writeHead(403, { 'content-type': 'application/json', 'x-received-key': String(req.headers['x-api-key']), 'x-auth': basic(API_KEY) });
        res.end(echo);
      });
    });
    servers.push(service);
    const base = await listen(service);
    for (let i = 0; i < echoes.length; i++) {
      const token = must(await desk.requestToken({ userId: 'u-1', displayName: 'U', baseUrl: base, confirmedBaseUrl: base }));
      expect(token.status).toBe(403);
    }
    const body = JSON.stringify({ userId: 'u-1', depositId: 'd-send', currency: 'USD', amount: 1 });
    must(
      await desk.send({
        to: base,
        signature: 'resign',
        draft: {
          method: 'POST',
          path: `/platform/pay?k=${encodeURIComponent(API_KEY)}&s=${SECRET}`,
          headers: [
            ['Content-Type', 'application/json'],
            ['Authorization', basic(SECRET)],
            ['X-Key', API_KEY],
          ],
          bodyBase64: Buffer.from(body).toString('base64'),
          sourceId: null,
        },
      }),
    );
    await expectNoCanary(desk, home, ['d-send']);
  });
});
