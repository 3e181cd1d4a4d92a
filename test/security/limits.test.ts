// The limits of docs/LIMITS.md are the ones in force, and each is set where the document says: the proxy's
// through DeskOptions (what the desktop app and the web mode use, via desk.startProxy) and through
// `serve` flags; the outbound timeout through DeskOptions. (Retention, the last limit: retention.test.ts.
// The upstream timeout's 504: test/integration/proxy/forward.test.ts.)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MAX_API_BODY_BYTES } from '../../src-main/cli/web/api-routes';
import { createDesk, type Desk } from '../../src-main/core/desk';
import { featureDepsOf } from '../../src-main/core/desk/seams';
import { MAX_RESPONSE_BYTES } from '../../src-main/core/outbound';
import { DEFAULT_GUARD_RAILS, DEFAULT_PROXY_HOST, DEFAULT_PROXY_PORT } from '../../src-main/core/proxy';
import { tempDir } from '../helpers/temp';
import { send } from '../integration/proxy/helpers';
import { startServe } from '../integration/proxy/serve-process';
import { rawRoundTrip } from '../helpers/raw-socket';

const KiB = 1024;
const MiB = 1024 * KiB;

/** The three proxy limits at work on a proxy at `url`: body size, header size, headers timeout. */
async function expectLimits(url: string, limits: { body: number; header: number }): Promise<void> {
  const port = Number(new URL(url).port);
  const within = await send(url, { body: JSON.stringify({ userId: 'u', depositId: 'ok', currency: 'USD', amount: 1 }) });
  expect(within.status).toBe(200);
  expect((await send(url, { body: Buffer.alloc(limits.body + 1, 0x20) })).status).toBe(413);
  expect((await send(url, { body: Buffer.alloc(limits.body, 0x20) })).status).toBe(400); // kept whole, judged: not JSON
  const bigHeader = await rawRoundTrip(port, `POST /platform/pay HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(limits.header)}\r\nContent-Length: 2\r\n\r\n{}`);
  expect(bigHeader.statuses).toEqual([431]);
  // Headers that never end: cut off by the headers timeout (the socket stays open on our side).
  const stalled = await rawRoundTrip(port, 'POST /platform/pay HTTP/1.1\r\nHost: x\r\n', { halfClose: false });
  expect(stalled.statuses).toEqual([408]);
}

describe('limits', () => {
  it('the defaults are the documented ones', async () => {
    expect(DEFAULT_GUARD_RAILS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxHeaderBytes: 16 * KiB,
      tlsHandshakeTimeoutMs: 10_000,
      maxConnections: 800,
    });
    expect([DEFAULT_PROXY_HOST, DEFAULT_PROXY_PORT]).toEqual(['127.0.0.1', 8787]);
    expect(MAX_RESPONSE_BYTES).toBe(16 * MiB);
    expect(MAX_API_BODY_BYTES).toBe(64 * MiB);
    const desk = createDesk({ home: tempDir() });
    try {
      const status = await desk.getStatus();
      expect(status.ok && status.value.proxy.limits).toEqual({ ...DEFAULT_GUARD_RAILS, maxBodyBytes: MiB, upstreamTimeoutMs: 30_000 });
      expect(featureDepsOf(desk).options).toMatchObject({ outboundTimeoutMs: 30_000, proxyGuardRails: {} });
    } finally {
      await desk.close();
    }
  });

  it('DeskOptions set the proxy limits of desk.startProxy (the desktop app and web mode path)', async () => {
    const desk: Desk = createDesk({ home: tempDir(), maxBodyBytes: 1000, proxyGuardRails: { maxHeaderBytes: 2 * KiB, headersTimeoutMs: 300 } });
    try {
      const started = await desk.startProxy({ port: 0 });
      expect(started.ok).toBe(true);
      if (!started.ok) return;
      await expectLimits(started.value.proxy.url!, { body: 1000, header: 2 * KiB });
    } finally {
      await desk.close();
    }
  });

  it('DeskOptions refuse a limit that is not a positive number, at the start', async () => {
    const desk = createDesk({ home: tempDir(), proxyGuardRails: { requestTimeoutMs: -1 } });
    try {
      const started = await desk.startProxy({ port: 0 });
      expect(started.ok).toBe(false);
      if (!started.ok) expect(started.error).toMatchObject({ code: 'bad-input', message: expect.stringMatching(/requestTimeoutMs must be a positive number/) });
    } finally {
      await desk.close();
    }
  });

  it('serve flags set the proxy limits', { timeout: 30_000 }, async () => {
    const serve = await startServe([
      '--home',
      tempDir(),
      'serve',
      '--no-ui',
      '--proxy-port',
      '0',
      '--max-body',
      '1000',
      '--max-header-size',
      String(2 * KiB),
      '--headers-timeout',
      '300',
      '--request-timeout',
      '600',
      '--keep-alive-timeout',
      '200',
    ]);
    await expectLimits(serve.url, { body: 1000, header: 2 * KiB });
    // A body that trickles: cut by the request timeout.
    const slow = await rawRoundTrip(Number(new URL(serve.url).port), 'POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{"a":', {
      halfClose: false,
    });
    expect(slow.statuses).toEqual([408]);
    expect((await serve.stop('SIGTERM')).code).toBe(0);
  });

  it('the outbound timeout of DeskOptions bounds a replay to an operator that never answers', async () => {
    const hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const to = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const desk = createDesk({ home: tempDir(), outboundTimeoutMs: 300 });
    try {
      const draft = await desk.draftTemplate('pay');
      expect(draft.ok).toBe(true);
      if (!draft.ok) return;
      const sent = await desk.send({ draft: draft.value, to, signature: 'none' });
      expect(sent.ok && sent.value.response).toBeNull();
      expect(sent.ok && sent.value.error).toMatch(/within 300 ms \(timeout\)/);
    } finally {
      await desk.close();
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});
