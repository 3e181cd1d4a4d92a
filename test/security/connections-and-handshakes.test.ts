// Connections that never become requests: TLS handshakes that fail or stall each leave a small row
// (rate-limited), a stalled handshake is closed at its timeout, and idle connections over the
// connection budget make room for a valid callback instead of starving it.
import net from 'node:net';
import tls from 'node:tls';
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../src-main/core/desk';
import { HANDSHAKE_ROWS_PER_WINDOW, HandshakeFailureBudget } from '../../src-main/core/proxy/handshake-failures';
import { sign } from '../../src-main/core/signing';
import { closeAfterTest } from '../helpers/closing';
import { openDesk } from '../helpers/desk';
import { rawRoundTrip } from '../helpers/raw-socket';
import { captures, latest, send, startProxy } from '../integration/proxy/helpers';

const SECRET = 'connections-secret-1c9e';

async function signedDesk(): Promise<Desk> {
  const desk = openDesk();
  expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
  expect((await desk.useProfile('p')).ok).toBe(true);
  return desk;
}

/** Resolves once the socket is closed (by either side), with whether the server closed it first. */
function closed(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.on('error', () => {});
    socket.once('close', () => resolve());
  });
}

/** Waits until `check` holds, polling on each turn of the loop of the proxy's own writes (no fixed sleep). */
async function until(check: () => boolean | Promise<boolean>, what: string, limitMs = 10_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('TLS handshakes that fail leave a row', () => {
  it('plain HTTP sent to the TLS port: a row of kind other naming what happened and who sent it', async () => {
    const desk = await signedDesk();
    const { port } = await startProxy(desk, { tls: { selfSigned: ['127.0.0.1'] } });
    await rawRoundTrip(port, 'POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}');
    await until(async () => (await captures(desk)).length === 1, 'the handshake row');
    const row = await latest(desk);
    expect(row.kind).toBe('other');
    expect(row.error).toMatch(/plain HTTP was sent to the TLS port/);
    expect(row.remoteAddress).toBe('127.0.0.1');
    expect(row.response).toBeNull();
  });

  it('a client that refuses the certificate: a row saying the handshake failed', async () => {
    const desk = await signedDesk();
    const { port } = await startProxy(desk, { tls: { selfSigned: ['127.0.0.1'] } });
    const socket = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: true });
    await closed(socket);
    await until(async () => (await captures(desk)).length === 1, 'the handshake row');
    expect((await latest(desk)).error).toMatch(/TLS handshake failed/);
  });

  it('a stalled handshake is closed at the handshake timeout, and recorded', async () => {
    const desk = await signedDesk();
    const { port } = await startProxy(desk, { tls: { selfSigned: ['127.0.0.1'] }, tlsHandshakeTimeoutMs: 300 });
    const socket = net.connect(port, '127.0.0.1');
    // The first bytes of a ClientHello record header, then silence.
    socket.on('connect', () => socket.write(Buffer.from([0x16, 0x03, 0x01])));
    await closed(socket);
    await until(async () => (await captures(desk)).length === 1, 'the handshake row');
    expect((await latest(desk)).error).toMatch(/did not complete within the handshake timeout/);
  });

  it('rows of handshake failures are bounded per minute; the next recorded one counts those skipped', () => {
    let t = 0;
    const budget = new HandshakeFailureBudget(() => t);
    const taken = Array.from({ length: HANDSHAKE_ROWS_PER_WINDOW + 25 }, () => budget.take());
    expect(taken.filter((x) => x.record)).toHaveLength(HANDSHAKE_ROWS_PER_WINDOW);
    t += 60_000;
    expect(budget.take()).toEqual({ record: true, skipped: 25 });
  });
});

describe('the connection budget keeps room for a valid callback', () => {
  it('with a budget of 20 and 30 idle sockets open, a valid callback is answered and recorded', async () => {
    const desk = await signedDesk();
    const { url, port } = await startProxy(desk, { maxConnections: 20 });
    let cut = 0;
    for (let i = 0; i < 30; i++) {
      const s = net.connect(port, '127.0.0.1');
      closeAfterTest({ close: () => void s.destroy() });
      void closed(s).then(() => cut++);
      await new Promise<void>((resolve) => s.once('connect', () => resolve()));
    }
    const body = JSON.stringify({ userId: 'u', depositId: 'room-left', currency: 'USD', amount: 1 });
    const reply = await send(url, { body, headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), SECRET) } });
    expect(reply.status).toBe(200);
    expect((await latest(desk)).depositId).toBe('room-left');
    // The oldest idle ones were closed to make room: 11 of the 30 (the callback's connection counts too).
    await until(() => cut >= 11, 'the oldest idle connections to be closed');
  });
});
