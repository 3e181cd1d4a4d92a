// Bad input never stops the proxy: each case is answered 4XX (or the connection closed), recorded where
// a request was parsed far enough to be one, and a valid callback succeeds right after.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import type { ExchangeEvent, ExchangeSummary } from '../../../src-main/shared/model';
import { captures, json, latest, send, startProxy } from './helpers';
import { openDesk } from '../../helpers/desk';
import { rawRoundTrip } from '../../helpers/raw-socket';
import { exchangeOf } from '../../helpers/log-reads';

const VALID_PAY = (depositId: string) => JSON.stringify({ userId: 'u-1', depositId, currency: 'USD', amount: 1 });
let alive = 0;

/** Raw bytes with the connection left open, as a slow or broken client leaves it: the proxy, not
 *  our end of the socket, must be what ends each of these exchanges. */
const rawText = async (port: number, bytes: string): Promise<string> => (await rawRoundTrip(port, bytes, { halfClose: false })).text;

/** A valid pay right after the bad input: the proxy still serves and still records. */
async function expectAlive(desk: Desk, url: string): Promise<void> {
  const depositId = `alive-${++alive}`;
  const reply = await send(url, { body: VALID_PAY(depositId), headers: { 'content-type': 'application/json' } });
  expect(reply.status).toBe(200);
  expect((await latest(desk)).depositId).toBe(depositId);
}

function nextExchange(desk: Desk, accept: (x: ExchangeSummary) => boolean): Promise<ExchangeSummary> {
  return new Promise((resolve) => {
    const off = desk.on((name, payload) => {
      if (name === 'exchange' && accept((payload as ExchangeEvent).exchange)) {
        off();
        resolve((payload as ExchangeEvent).exchange);
      }
    });
  });
}

describe('guard rails', () => {
  it('an oversized body: 413 in the error shape, the row kept and marked truncated', async () => {
    const desk = openDesk();
    const { url } = await startProxy(desk, { maxBodyBytes: 1024 });
    const body = Buffer.alloc(5000, 0x61);
    const reply = await send(url, { body, headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(413);
    expect(json(reply)).toEqual({ errors: [{ code: 'PAYLOAD_TOO_LARGE', isClientSafe: false }] });
    const row = await latest(desk);
    expect(row.truncated).toBe(true);
    expect(row.request.size).toBeGreaterThan(1024);
    expect(row.request.size).toBeLessThanOrEqual(5000);
    expect(Buffer.from(row.request.bodyBase64, 'base64').equals(body.subarray(0, 1024))).toBe(true);
    expect(row.response?.status).toBe(413);
    expect(row.findings[0]?.message).toMatch(/larger than the limit of 1024 bytes/);
    await expectAlive(desk, url);
  });

  it('oversized headers: 431, recorded with the bytes received (bounded), still serving', async () => {
    const desk = openDesk();
    const { url, port } = await startProxy(desk);
    const answer = await rawText(port, `POST /platform/pay HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\n{}`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('HEADERS_TOO_LARGE');
    const [row] = await captures(desk);
    expect(row).toMatchObject({ method: 'POST', path: '/platform/pay', response: { status: 431 } });
    expect(row!.error).toMatch(/headers were larger than allowed/);
    expect(row!.signature.verdict).toBeNull();
    await expectAlive(desk, url);
  });

  it('Content-Length together with Transfer-Encoding: 400 and closed', async () => {
    const desk = openDesk();
    const { url, port } = await startProxy(desk);
    const answer = await rawText(port, 'POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('BAD_REQUEST');
    await expectAlive(desk, url);
  });

  it('bad chunk framing mid-body: 400, and the request is recorded with the error', async () => {
    const desk = openDesk();
    const { url, port } = await startProxy(desk);
    const answer = await rawText(port, 'POST /platform/pay HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"a"\r\nzz\r\nhello\r\n0\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const row = await latest(desk);
    expect(row.error).toMatch(/malformed/);
    expect(row.response?.status).toBe(400);
    expect(Buffer.from(row.request.bodyBase64, 'base64').toString()).toBe('{"a"');
    await expectAlive(desk, url);
  });

  it('a request line that is not HTTP: 400 and closed', async () => {
    const desk = openDesk();
    const { url, port } = await startProxy(desk);
    expect(await rawText(port, 'HELLO WORLD\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await rawText(port, '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03')).toMatch(/^HTTP\/1\.1 400 |^$/);
    await expectAlive(desk, url);
  });

  it('invalid JSON, invalid UTF-8, an empty body, a wrong content type: recorded with findings and answered', async () => {
    const desk = openDesk();
    const { url } = await startProxy(desk);
    const cases: Array<{ body: Buffer; type: string; status: number }> = [
      { body: Buffer.from('{"userId": "u-1",'), type: 'application/json', status: 400 },
      { body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), type: 'application/json', status: 400 },
      { body: Buffer.alloc(0), type: 'application/json', status: 400 },
      { body: Buffer.from(VALID_PAY('typed-wrong')), type: 'text/plain; charset=latin1', status: 200 },
    ];
    for (const c of cases) {
      const reply = await send(url, { body: c.body, headers: { 'content-type': c.type } });
      expect(reply.status, c.body.toString('hex')).toBe(c.status);
      const row = await latest(desk);
      expect(Buffer.from(row.request.bodyBase64, 'base64').equals(c.body)).toBe(true);
      expect(row.response?.status).toBe(c.status);
      if (c.status === 400) expect(row.errorCount).toBeGreaterThan(0);
      expect(row.request.headers).toContainEqual(['content-type', c.type]);
    }
    await expectAlive(desk, url);
  });

  it('a slow client is cut off with 408, and what it sent is recorded with the error', async () => {
    const desk = openDesk();
    const { url, port } = await startProxy(desk, { requestTimeoutMs: 400 });
    const recorded = nextExchange(desk, (x) => x.error !== null);
    const answer = await rawText(port, 'POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"userId":');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect((await recorded).response?.status).toBe(408);
    const row = await latest(desk);
    expect(row.error).toMatch(/too slow/);
    expect(row.request.size).toBe(10);
    await expectAlive(desk, url);
  });

  it('a client that never finishes its headers is cut off', async () => {
    const desk = openDesk();
    const { url, port } = await startProxy(desk, { headersTimeoutMs: 300, requestTimeoutMs: 2_000 });
    const answer = await rawText(port, 'POST /platform/pay HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    await expectAlive(desk, url);
  });

  it('a client that aborts mid-body: the partial request is still recorded, with the error', async () => {
    const desk = openDesk();
    const { url, port } = await startProxy(desk);
    const recorded = nextExchange(desk, (x) => x.error !== null);
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"userId":', () => socket.destroy());
    const summary = await recorded;
    expect(summary.error).toMatch(/closed the connection after 10 of 100 body bytes/);
    expect(summary.response).toBeNull();
    expect((await exchangeOf(desk, summary.id)).request.size).toBe(10);
    await expectAlive(desk, url);
  });

  it('a Host-less HTTP/1.0 request is recorded and answered', async () => {
    const desk = openDesk();
    const { url, port } = await startProxy(desk);
    const body = VALID_PAY('http10');
    const answer = await rawText(port, `POST /platform/pay HTTP/1.0\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect((await latest(desk)).depositId).toBe('http10');
    await expectAlive(desk, url);
  });
});
