// Every request that reaches the proxy gets its own row and its own answer, also when several arrive in
// one write (pipelined), when the headers never complete (silence or FIN), and when a header block is
// over the limit by count of short headers rather than by one long one. A valid request sharing a write
// with a bad one is answered and recorded as itself; the bad one gets a row of its own.
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { openDesk } from '../helpers/desk';
import { rawRoundTrip } from '../helpers/raw-socket';
import { captures, latest, startProxy } from '../integration/proxy/helpers';
import { exchangeOf } from '../helpers/log-reads';

const SECRET = 'pipelined-rows-secret-7a1f';
const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

async function signedDesk(): Promise<Desk> {
  const desk = openDesk();
  expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
  expect((await desk.useProfile('p')).ok).toBe(true);
  return desk;
}

function signedPay(depositId: string): string {
  const body = JSON.stringify({ userId: 'u-1', depositId, currency: 'USD', amount: 1 });
  const signature = sign(Buffer.from(body), SECRET);
  return `POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Server-Authorization: ${signature}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
}

async function rowsOf(desk: Desk) {
  const oldestFirst = (await captures(desk, 100)).reverse();
  return Promise.all(oldestFirst.map((s) => exchangeOf(desk, s.id)));
}

describe('pipelined requests each get their own row and answer', () => {
  it('a valid pay followed by garbage in one write: the pay is answered 200 and recorded as itself, the garbage 400 with its own row', async () => {
    const desk = await signedDesk();
    const { port } = await startProxy(desk);
    const answer = await rawRoundTrip(port, latin1(signedPay('piped-1') + 'GARBAGE\r\n\r\n'));
    expect(answer.statuses).toEqual([200, 400]);
    const rows = await rowsOf(desk);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.depositId).toBe('piped-1');
    expect(rows[0]!.signature.verdict).toBe('valid');
    expect(rows[0]!.response?.status).toBe(200);
    expect(rows[0]!.error).toBeNull();
    expect(rows[1]!.response?.status).toBe(400);
    expect(rows[1]!.error).toMatch(/malformed/);
  });

  it('valid + valid + oversized header block: both valid ones answered 200, only the third 431, three rows', async () => {
    const desk = await signedDesk();
    const { port } = await startProxy(desk);
    const oversized = `POST /platform/pay HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\n{}`;
    const answer = await rawRoundTrip(port, latin1(signedPay('piped-a') + signedPay('piped-b') + oversized));
    expect(answer.statuses).toEqual([200, 200, 431]);
    const rows = await rowsOf(desk);
    expect(rows.map((r) => r.response?.status)).toEqual([200, 200, 431]);
    expect(rows.map((r) => r.depositId)).toEqual(['piped-a', 'piped-b', null]);
    expect(rows[2]!.error).toMatch(/larger than allowed/);
  });
});

describe('a request whose headers never complete has a row', () => {
  it('HTTP/0.9 "GET /platform/pay" with a single CRLF, then FIN: a row naming what happened', async () => {
    const desk = await signedDesk();
    const { port } = await startProxy(desk);
    await rawRoundTrip(port, latin1('GET /platform/pay\r\n'));
    const rows = await rowsOf(desk);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.error).toMatch(/HTTP\/0\.9|before .*headers were complete/);
    expect(rows[0]!.remoteAddress).toBe('127.0.0.1');
  });

  it('a request line and partial headers, then FIN: recorded', async () => {
    const desk = await signedDesk();
    const { port } = await startProxy(desk);
    await rawRoundTrip(port, latin1('POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Le'));
    const rows = await rowsOf(desk);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.error).toMatch(/closed the connection before its request's headers were complete/);
  });

  it('a request line and partial headers, then silence: answered 408 and recorded', async () => {
    const desk = await signedDesk();
    const { port } = await startProxy(desk, { headersTimeoutMs: 300 });
    const answer = await rawRoundTrip(port, latin1('POST /platform/pay HTTP/1.1\r\nHost: x\r\n'), { halfClose: false });
    expect(answer.statuses).toEqual([408]);
    const row = await latest(desk);
    expect(row.response?.status).toBe(408);
    expect(row.error).toMatch(/headers were not complete within/);
  });

  it('a connection that sends nothing and times out leaves no row (nothing reached the proxy)', async () => {
    const desk = await signedDesk();
    const { port } = await startProxy(desk, { headersTimeoutMs: 300 });
    await rawRoundTrip(port, '', { halfClose: false });
    expect(await captures(desk, 10)).toHaveLength(0);
  });
});

describe('a header block over the limit by count', () => {
  it('4,200 short headers (over 16 KiB) are answered 431 with a row, not read with headers dropped', async () => {
    const desk = await signedDesk();
    const { port } = await startProxy(desk);
    const body = JSON.stringify({ userId: 'u', depositId: 'many', currency: 'USD', amount: 1 });
    const many = 'a:\r\n'.repeat(4200);
    expect(many.length).toBeGreaterThan(16 * 1024);
    const head = `POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n${many}x-server-authorization: ${sign(Buffer.from(body), SECRET)}\r\n\r\n`;
    const answer = await rawRoundTrip(port, latin1(head + body));
    expect(answer.statuses).toEqual([431]);
    const row = await latest(desk);
    expect(row.response?.status).toBe(431);
  });
});
