// Promise 2: exact bytes, end to end. Arbitrary byte bodies go through capture (the proxy, forward mode),
// the store, the forward to a stand-in operator, a replay with signature 'keep' and no edits to a second
// stand-in that records what it received, and a HAR export imported into another data directory. At each
// place the bytes (and the signature header) must be the ones sent. The proxy's own forward exactness is
// in test/integration/proxy/exactness.test.ts; this follows the same bytes further.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { tempDir } from '../helpers/temp';
import { send, sha256, startProxy } from '../integration/proxy/helpers';
import { closeAfterTest } from '../helpers/closing';
import { startRecorder } from '../helpers/servers';
import { exchangeOf, exchangesOf } from '../helpers/log-reads';

const SECRET = 'exact-bytes-secret';
const bytes = (...parts: Array<ArrayLike<number>>): Uint8Array => Uint8Array.from(parts.flatMap((p) => Array.from(p)));

const bodyArb = fc.oneof(
  fc.uint8Array({ maxLength: 4096 }),
  fc.constant(new Uint8Array(0)),
  // A BOM, CRLF line ends, a trailing newline: what a re-serializer or a text decoder would lose.
  fc.uint8Array({ maxLength: 300 }).map((b) => bytes([0xef, 0xbb, 0xbf], b)),
  fc.string({ unit: 'binary', maxLength: 300 }).map((s) => new TextEncoder().encode(s.replace(/\n/g, '\r\n') + '\r\n')),
  // Never valid UTF-8: HAR must fall back to base64 and still give the bytes back.
  fc.uint8Array({ maxLength: 200 }).map((b) => bytes([0xc0, 0x80], b, [0xff, 0xfe])),
  // JSON with whitespace and escapes that a parse-and-stringify would change.
  fc.json().map((j) => new TextEncoder().encode(` ${j.replace(/,/g, ' ,\t')} `)),
);

const header = (rawHeaders: string[], name: string): string | undefined => {
  const i = rawHeaders.findIndex((h, k) => k % 2 === 0 && h.toLowerCase() === name);
  return i < 0 ? undefined : rawHeaders[i + 1];
};
const b64 = (s: string): Buffer => Buffer.from(s, 'base64');

describe('exact bytes through capture, store, forward, replay and HAR', () => {
  it('keeps arbitrary bodies byte for byte everywhere they go', { timeout: 30_000 }, async () => {
    const answers = new Map<string, Uint8Array>();
    const answer = (caseId: string, res: import('node:http').ServerResponse): void => {
      const a = answers.get(caseId) ?? new Uint8Array(0);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': a.length });
      res.end(a);
    };
    const operator = closeAfterTest(await startRecorder((req, _body, res) => answer(String(req.headers['x-case']), res)));
    const replayTarget = closeAfterTest(await startRecorder((req, _body, res) => answer(String(req.headers['x-case']), res)));
    const desk = createDesk({ home: tempDir() });
    const other = createDesk({ home: tempDir() });
    try {
      expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
      expect((await desk.useProfile('p')).ok).toBe(true);
      const { url } = await startProxy(desk, { upstream: operator.url });
      const sent = new Map<string, { body: Uint8Array; answer: Uint8Array; signature: string; path: string }>();
      let n = 0;

      await fc.assert(
        fc.asyncProperty(bodyArb, bodyArb, fc.constantFrom('/platform/pay', '/platform/results', '/x/y?z=1&z=2'), async (body, reply, path) => {
          const caseId = String(++n);
          answers.set(caseId, reply);
          const signature = sign(body, SECRET);
          sent.set(caseId, { body, answer: reply, signature, path });

          // Capture and forward.
          const got = await send(url, { path, body, headers: { 'x-case': caseId, 'content-type': 'application/json', 'x-server-authorization': signature } });
          expect(sha256(got.body)).toBe(sha256(reply));
          const forwarded = operator.received.at(-1)!;
          expect(sha256(forwarded.body)).toBe(sha256(body));
          expect(header(forwarded.rawHeaders, 'x-server-authorization')).toBe(signature);

          // Store.
          const captured = (await exchangesOf(desk, { limit: 1 }))[0]!;
          const row = await exchangeOf(desk, captured.id);
          expect(sha256(b64(row.request.bodyBase64))).toBe(sha256(body));
          expect(sha256(b64(row.response!.bodyBase64))).toBe(sha256(reply));
          expect(row.signature.verdict === null || row.signature.verdict === 'valid').toBe(true);

          // Replay, signature kept, no edits: the same bytes and the same header reach the other side.
          const replayed = await desk.replay({ sourceId: captured.id, to: replayTarget.url, signature: 'keep' });
          expect(replayed.ok).toBe(true);
          const arrived = replayTarget.received.at(-1)!;
          expect(sha256(arrived.body)).toBe(sha256(body));
          expect(header(arrived.rawHeaders, 'x-server-authorization')).toBe(signature);
          expect(arrived.url).toBe(path);
          if (replayed.ok) {
            expect(sha256(b64(replayed.value.request.bodyBase64))).toBe(sha256(body));
            expect(sha256(b64(replayed.value.response!.bodyBase64))).toBe(sha256(reply));
          }
        }),
        { numRuns: 40 },
      );
      expect(operator.received).toHaveLength(40);
      expect(replayTarget.received).toHaveLength(40);

      // HAR out of this desk and into another data directory: the same request and response bytes.
      const har = await desk.exportHar({ direction: 'inbound', limit: 1000 });
      expect(har.ok).toBe(true);
      if (!har.ok) return;
      const imported = await other.importHar(har.value, { origin: 'exact-bytes.har' });
      expect(imported.ok && imported.value.imported).toBe(40);
      if (!imported.ok) return;
      const seen = new Set<string>();
      for (const id of imported.value.ids) {
        const row = await exchangeOf(other, id);
        const caseId = row.request.headers.find(([name]) => name.toLowerCase() === 'x-case')?.[1];
        const original = sent.get(caseId ?? '');
        expect(original, `case ${caseId}`).toBeDefined();
        if (!original) continue;
        seen.add(caseId!);
        expect(sha256(b64(row.request.bodyBase64)), `case ${caseId}`).toBe(sha256(original.body));
        expect(sha256(b64(row.response!.bodyBase64)), `case ${caseId}`).toBe(sha256(original.answer));
        expect(row.request.headers.find(([name]) => name.toLowerCase() === 'x-server-authorization')?.[1]).toBe(original.signature);
        expect(`${row.request.path}${row.request.query ? `?${row.request.query}` : ''}`).toBe(original.path);
      }
      expect(seen.size).toBe(40);
    } finally {
      await desk.close();
      await other.close();
    }
  });
});
