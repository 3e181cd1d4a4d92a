// Byte exactness in forward mode: whatever bytes arrive (invalid UTF-8, a BOM, CRLF, nothing at all) are
// stored and forwarded unchanged, and the upstream's answer comes back unchanged. Compared by hash at
// the three places the bytes live: what the upstream received, the database, and the reply.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { captures, send, sha256, startProxy } from './helpers';
import { openDesk } from '../../helpers/desk';
import { closeAfterTest } from '../../helpers/closing';
import { startRecorder } from '../../helpers/servers';
import { exchangeOf } from '../../helpers/log-reads';

const BOM = [0xef, 0xbb, 0xbf];
const bytes = (...parts: Array<ArrayLike<number>>): Uint8Array => Uint8Array.from(parts.flatMap((p) => Array.from(p)));

const bodyArb = fc.oneof(
  fc.uint8Array({ maxLength: 4096 }),
  fc.constant(new Uint8Array(0)),
  fc.uint8Array({ maxLength: 300 }).map((b) => bytes(BOM, b)),
  fc.string({ unit: 'binary', maxLength: 300 }).map((s) => new TextEncoder().encode(s.replace(/\n/g, '\r\n') + '\r\n')),
  // Bytes that are never valid UTF-8 (0xC0, 0xFF), lone continuation bytes, a truncated sequence.
  fc.uint8Array({ maxLength: 200 }).map((b) => bytes([0xc0, 0x80], b, [0xff, 0x80, 0xe2, 0x82])),
  fc.json().map((j) => new TextEncoder().encode(j)),
);

describe('forward mode: exact bytes both ways', () => {
  it('stores and forwards random bodies byte for byte, and relays random answers byte for byte', async () => {
    const answers = new Map<string, Uint8Array>();
    const upstream = closeAfterTest(
      await startRecorder((req, _body, res) => {
        const answer = answers.get(String(req.headers['x-case']))!;
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': answer.length });
        res.end(answer);
      }),
    );
    const desk = openDesk();
    const { url } = await startProxy(desk, { upstream: upstream.url });
    let n = 0;

    await fc.assert(
      fc.asyncProperty(bodyArb, bodyArb, fc.constantFrom('/platform/pay', '/platform/results', '/x/y?z=1&z=2'), async (body, answer, path) => {
        const id = String(++n);
        answers.set(id, answer);
        const reply = await send(url, { path, body, headers: { 'x-case': id, 'content-type': 'application/json' } });
        const got = upstream.received.at(-1)!;
        const row = await exchangeOf(desk, (await captures(desk, 1))[0]!.id);

        expect(sha256(got.body)).toBe(sha256(body));
        expect(sha256(Buffer.from(row.request.bodyBase64, 'base64'))).toBe(sha256(body));
        expect(row.request.size).toBe(body.length);
        expect(sha256(reply.body)).toBe(sha256(answer));
        expect(sha256(Buffer.from(row.response!.bodyBase64, 'base64'))).toBe(sha256(answer));
        expect(got.url).toBe(path);
      }),
      { numRuns: 80 },
    );
    expect(upstream.received.length).toBe(80);
  });

  it('relays a chunked request body and a chunked answer exactly', async () => {
    const answer = Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x0d, 0x0a, 0xff, 0x7d]);
    const upstream = closeAfterTest(
      await startRecorder((_req, _body, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(answer.subarray(0, 3));
        res.end(answer.subarray(3));
      }),
    );
    const desk = openDesk();
    const { url } = await startProxy(desk, { upstream: upstream.url });
    const body = Buffer.from('{"a":\r\n"\u00e9"}\r\n', 'utf8');
    const reply = await new Promise<Buffer>((resolve, reject) => {
      // No content-length: Node sends the body chunked.
      import('node:http').then(({ request }) => {
        const req = request(`${url}/platform/pay`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        });
        req.on('error', reject);
        req.write(body.subarray(0, 4));
        req.end(body.subarray(4));
      }, reject);
    });
    expect(reply.equals(answer)).toBe(true);
    expect(upstream.received[0]!.body.equals(body)).toBe(true);
    const names = upstream.received[0]!.rawHeaders.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase());
    expect(names).not.toContain('transfer-encoding');
    expect(names).toContain('content-length');
  });
});
