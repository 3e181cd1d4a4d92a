// Promise 3: bad input never stops the proxy. Fuzzed raw HTTP (request lines, headers, framing, bodies)
// from fast-check over plain sockets, a table of known request-smuggling and framing attacks, slowloris
// sockets that send their headers a byte at a time, oversized header blocks and bodies; after each, a
// valid signed callback is answered 200 and recorded. The single cases with their exact answers and rows
// (413 with the truncated row, 431, 400 for Content-Length with Transfer-Encoding, 408 for a slow body,
// a client that aborts mid-body) are in test/integration/proxy/guard-rails.test.ts; memory over hundreds
// of large bodies in memory-bounded.test.ts.
import fc from 'fast-check';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { send, startProxy } from '../integration/proxy/helpers';
import { openDesk, sqliteOf } from '../helpers/desk';
import { rawRoundTrip } from '../helpers/raw-socket';
import { exchangeOf, exchangesOf } from '../helpers/log-reads';

const SECRET = 'bad-input-secret';
let alive = 0;

/** A valid signed pay right after the bad input: answered 200 and recorded. */
async function expectAlive(desk: Desk, url: string): Promise<void> {
  const depositId = `alive-${++alive}`;
  const body = JSON.stringify({ userId: 'u-1', depositId, currency: 'USD', amount: 1 });
  const reply = await send(url, { body, headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), SECRET) } });
  expect(reply.status).toBe(200);
  expect(await exchangesOf(desk, { depositId, limit: 1 })).toHaveLength(1);
}

async function signedDesk(): Promise<Desk> {
  const desk = openDesk();
  expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
  expect((await desk.useProfile('p')).ok).toBe(true);
  return desk;
}

// ------------------------------------------------------------------ generators of raw requests

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');
const anyBytes = (max: number) => fc.uint8Array({ maxLength: max }).map((b) => Buffer.from(b));
const printable = (max: number) => fc.string({ unit: 'grapheme-ascii', maxLength: max });

const methodArb = fc.oneof(
  fc.constantFrom('POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'CONNECT', 'TRACE', 'PRI', 'post', 'M-SEARCH', ''),
  printable(12),
);
const targetArb = fc.oneof(
  fc.constantFrom('/platform/pay', '/platform/results', '*', '//x', '/platform/pay?a=1&a=2', 'http://127.0.0.1:1/platform/pay', '/%00', '/..%2f..%2f'),
  printable(60).map((s) => `/${s}`),
  anyBytes(40).map((b) => `/${b.toString('latin1')}`),
);
const versionArb = fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1x', 'http/1.1', '');
const requestLineArb = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(methodArb, targetArb, versionArb).map(([m, t, v]) => `${m} ${t} ${v}`) },
  { weight: 1, arbitrary: anyBytes(80).map((b) => b.toString('latin1')) },
);

const framingHeaderArb = fc.oneof(
  fc.constantFrom('5', '0', '-1', '+5', ' 5', '5, 5', '99999999999999999999', '0x10', '', '1e3').map((v) => `Content-Length: ${v}`),
  fc
    .constantFrom('chunked', 'chunked, identity', 'identity', 'xchunked', ' chunked', 'chunked\t', 'gzip, chunked', 'CHUNKED')
    .map((v) => `Transfer-Encoding: ${v}`),
  fc.constantFrom('Expect: 100-continue', 'Connection: close', 'Connection: keep-alive, Upgrade', 'Upgrade: websocket', 'Host: evil.test', 'Host:'),
);
const headerLineArb = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,20}$/), printable(60)).map(([n, v]) => `${n}: ${v}`) },
  { weight: 2, arbitrary: framingHeaderArb },
  // Bytes a header must not hold: CR, LF, NUL, DEL and high bytes, an obs-fold continuation line.
  { weight: 1, arbitrary: anyBytes(60).map((b) => `X-Bytes: ${b.toString('latin1')}`) },
  { weight: 1, arbitrary: printable(30).map((v) => `X-Folded: a\r\n ${v}`) },
  { weight: 1, arbitrary: anyBytes(30).map((b) => b.toString('latin1')) },
);

const chunkedBodyArb = fc
  .array(fc.tuple(anyBytes(64), fc.constantFrom('ok', 'ok', 'wrong-size', 'bad-hex', 'extension', 'no-crlf')), { maxLength: 4 })
  .chain((chunks) =>
    fc.constantFrom('0\r\n\r\n', '0\r\nX-Trailer: t\r\n\r\n', '', '0\r\n').map(
      (end) =>
        chunks
          .map(([data, how]) => {
            const text = data.toString('latin1');
            switch (how) {
              case 'wrong-size':
                return `${(data.length + 3).toString(16)}\r\n${text}\r\n`;
              case 'bad-hex':
                return `zz${data.length}\r\n${text}\r\n`;
              case 'extension':
                return `${data.length.toString(16)};name=${'v'.repeat(50)}\r\n${text}\r\n`;
              case 'no-crlf':
                return `${data.length.toString(16)}\r\n${text}`;
              default:
                return `${data.length.toString(16)}\r\n${text}\r\n`;
            }
          })
          .join('') + end,
    ),
  );
const bodyArb = fc.oneof(
  anyBytes(300).map((b) => b.toString('latin1')),
  chunkedBodyArb,
  fc.json().map((j) => Buffer.from(j, 'utf8').toString('latin1')),
);

const rawRequestArb = fc
  .tuple(requestLineArb, fc.array(headerLineArb, { maxLength: 8 }), fc.constantFrom('\r\n', '\r\n', '\n'), bodyArb, fc.boolean())
  .map(([line, headers, eol, body, withHost]) => latin1([line, ...(withHost ? ['Host: 127.0.0.1'] : []), ...headers].join(eol) + eol + eol + body));

// ------------------------------------------------------------------ the tests

describe('bad input never stops the proxy', () => {
  it('fuzzed raw requests: every answer is well-formed HTTP and never a 5XX; a valid callback succeeds after each', { timeout: 30_000 }, async () => {
    const desk = await signedDesk();
    const { url, port } = await startProxy(desk, { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(rawRequestArb, async (bytes) => {
        const answer = await rawRoundTrip(port, bytes);
        if (answer.text !== '') {
          expect(answer.text.startsWith('HTTP/1.1 '), answer.text.slice(0, 80)).toBe(true);
          answered++;
        }
        for (const status of answer.statuses) expect(status, answer.text.slice(0, 200)).toBeLessThan(500);
        await expectAlive(desk, url);
      }),
      { numRuns: 120 },
    );
    // The generators reach the server's answers, not only its hang-ups.
    expect(answered).toBeGreaterThan(30);
  });

  it('known smuggling and framing attacks: refused or framed one way only; no smuggled request is recorded', async () => {
    const desk = await signedDesk();
    const { url, port } = await startProxy(desk);
    const body = '{"userId":"u","depositId":"d","currency":"USD","amount":1}';
    const smuggled = 'POST /smuggled HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}';
    const cases: Array<{ name: string; bytes: string; mayAnswer: number[]; mayClose?: true }> = [
      {
        name: 'CL.TE',
        bytes: `POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`,
        mayAnswer: [400],
      },
      {
        name: 'TE.CL',
        bytes: `POST /platform/pay HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n${smuggled.length.toString(16)}\r\n${smuggled}\r\n0\r\n\r\n`,
        mayAnswer: [400],
      },
      {
        name: 'two different Content-Lengths',
        bytes: `POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 70\r\n\r\n{}${smuggled}`,
        mayAnswer: [400],
      },
      {
        name: 'Transfer-Encoding with a space before the colon',
        bytes: `POST /platform/pay HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\nContent-Length: 2\r\n\r\n{}${smuggled}`,
        mayAnswer: [400],
      },
      {
        name: 'an obfuscated Transfer-Encoding',
        bytes: `POST /platform/pay HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\nContent-Length: 2\r\n\r\n{}${smuggled}`,
        mayAnswer: [400, 501],
      },
      {
        name: 'a folded Transfer-Encoding',
        bytes: `POST /platform/pay HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\nContent-Length: 2\r\n\r\n{}${smuggled}`,
        mayAnswer: [400],
      },
      {
        name: 'a chunk size that overflows',
        bytes: `POST /platform/pay HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n${smuggled}\r\n0\r\n\r\n`,
        mayAnswer: [400],
      },
      { name: 'a NUL in a header value', bytes: `POST /platform/pay HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\nContent-Length: 2\r\n\r\n{}`, mayAnswer: [400] },
      { name: 'bare CR line ends', bytes: `POST /platform/pay HTTP/1.1\rHost: x\rContent-Length: 2\r\r{}`, mayAnswer: [400] },
      { name: 'the HTTP/2 preface', bytes: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', mayAnswer: [400, 505] },
      { name: 'an HTTP/0.9 request line', bytes: 'GET /platform/pay\r\n\r\n', mayAnswer: [400, 505], mayClose: true },
      {
        name: '1000 small headers over the header size limit',
        bytes: `POST /platform/pay HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 1000 }, (_, i) => `X-H${i}: ${'v'.repeat(12)}\r\n`).join('')}Content-Length: 2\r\n\r\n{}`,
        mayAnswer: [431],
      },
      { name: 'a 1 MiB request line', bytes: `POST /${'a'.repeat(1024 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`, mayAnswer: [414, 431, 400] },
      // The parser meets the garbage before the first request is answered: one 400 for the connection.
      {
        name: 'a pipelined valid request, then garbage',
        bytes: `POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}\u0016\u0003\u0001garbage\r\n\r\n`,
        mayAnswer: [401, 400],
      },
    ];
    for (const c of cases) {
      const answer = await rawRoundTrip(port, latin1(c.bytes));
      // An answer, every status one of those allowed; only an HTTP/0.9 line may get a bare close.
      if (!c.mayClose) expect(answer.statuses.length, c.name).toBeGreaterThan(0);
      for (const status of answer.statuses) expect(c.mayAnswer, `${c.name}: ${answer.text.slice(0, 120)}`).toContain(status);
      await expectAlive(desk, url);
    }
    const paths = sqliteOf(desk).prepare('SELECT path FROM exchanges').pluck().all() as string[];
    expect(paths.filter((p) => p.includes('smuggled'))).toEqual([]);
  });

  it('slowloris: sockets that send their headers a byte at a time are cut off, and the proxy serves others meanwhile', { timeout: 30_000 }, async () => {
    const desk = await signedDesk();
    const { url, port } = await startProxy(desk, { headersTimeoutMs: 500, requestTimeoutMs: 5_000 });
    const head = `POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Pad: ${'a'.repeat(4000)}\r\nContent-Length: 2\r\n\r\n{}`;
    const SOCKETS = 30;
    const trickle = (): Promise<{ sent: number; answer: string }> =>
      new Promise((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        let sent = 0;
        let timer: NodeJS.Timeout | undefined;
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('error', () => {});
        socket.on('connect', () => {
          // The attack itself: one byte every 10 ms, far slower than any real client.
          timer = setInterval(() => {
            if (sent < head.length && socket.writable) socket.write(head[sent++]!);
          }, 10);
        });
        socket.on('close', () => {
          clearInterval(timer);
          resolve({ sent, answer: Buffer.concat(chunks).toString('latin1') });
        });
      });
    const slow = Array.from({ length: SOCKETS }, trickle);
    // While they trickle, real callbacks are served.
    for (let i = 0; i < 5; i++) await expectAlive(desk, url);
    const outcomes = await Promise.all(slow);
    for (const o of outcomes) {
      // Cut off by the server long before the headers were complete (4000+ bytes at 10 ms would take 40 s).
      expect(o.sent).toBeLessThan(head.length / 2);
      expect(o.answer === '' || /^HTTP\/1\.1 408 /.test(o.answer), o.answer.slice(0, 80)).toBe(true);
    }
    // Each has a row of its own saying its headers never completed (no capture of a request it never made).
    const cut = sqliteOf(desk).prepare("SELECT error FROM exchanges WHERE deposit_id IS NULL OR deposit_id NOT LIKE 'alive-%'").pluck().all() as string[];
    expect(cut).toHaveLength(SOCKETS);
    for (const error of cut) expect(error).toMatch(/headers were not complete within 500 ms/);
    await expectAlive(desk, url);
  });

  it('oversized bodies, chunked or not, over and over: 413 with a truncated row each time, and still serving', async () => {
    const desk = await signedDesk();
    const { url, port } = await startProxy(desk, { maxBodyBytes: 4096 });
    for (let i = 0; i < 10; i++) {
      const big = Buffer.alloc(64 * 1024 + i, 0x61 + i);
      const chunked = i % 2 === 1;
      const bytes = chunked
        ? Buffer.concat([
            latin1(`POST /platform/pay HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${big.length.toString(16)}\r\n`),
            big,
            latin1('\r\n0\r\n\r\n'),
          ])
        : Buffer.concat([latin1(`POST /platform/pay HTTP/1.1\r\nHost: x\r\nContent-Length: ${big.length}\r\n\r\n`), big]);
      const answer = await rawRoundTrip(port, bytes);
      expect(answer.statuses, answer.text.slice(0, 80)).toEqual([413]);
      const row = await exchangeOf(desk, (await exchangesOf(desk, { limit: 1 }))[0]!.id);
      expect(row.truncated).toBe(true);
      expect(Buffer.from(row.request.bodyBase64, 'base64').equals(big.subarray(0, 4096))).toBe(true);
      await expectAlive(desk, url);
    }
  });
});
