// Generated hostile bodies and headers (deep, wide, duplicate keys, huge strings, odd encodings, invalid
// UTF-8, wrong signatures) sent through the real proxy: each is answered, recorded in a row of its own, the
// row stays within about twice what was sent, and the next well-formed callback is still served.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { closeAfterTest } from '../helpers/closing';
import { tempDir } from '../helpers/temp';
import { sqliteOf } from '../helpers/desk';
import { send, startProxy } from '../integration/proxy/helpers';

const SECRET = 'hostile-input-secret';
const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');

/** Bodies meant to make the judge work: parsing, inspection, duplicate-key search and diagnosis. */
const bodyArb: fc.Arbitrary<Buffer> = fc.oneof(
  // Deep: arrays or objects nested far past any callback.
  fc.record({ depth: fc.integer({ min: 65, max: 200_000 }), open: fc.constantFrom('[', '{"a":') }).map(({ depth, open }) => {
    const close = open === '[' ? ']' : '}';
    return utf8(`{"userId":"u","depositId":"d","nested":${open.repeat(depth)}1${close.repeat(depth)}}`.replace(/\[1\]/, '[1]'));
  }),
  // Wide: one object with very many members.
  fc.integer({ min: 1_000, max: 60_000 }).map((n) => utf8(`{"userId":"u",${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`)),
  // Nested arrays ending in duplicate keys (what once made a 148 MB findings column).
  fc
    .record({ depth: fc.integer({ min: 0, max: 60 }), copies: fc.integer({ min: 2, max: 20_000 }), objects: fc.integer({ min: 1, max: 5_000 }) })
    .map(({ depth, copies, objects }) => {
      const dup = `{${Array.from({ length: Math.min(copies, 50) }, () => '"amount":1').join(',')}}`;
      const inner = Array.from({ length: objects }, () => dup).join(',');
      return utf8(`{"userId":"u","x":${'['.repeat(depth)}[${inner}]${']'.repeat(depth)}}`);
    }),
  // Huge strings, padded with white space where the checks quote a value back.
  fc
    .record({ size: fc.integer({ min: 1_000, max: 900_000 }), field: fc.constantFrom('userId', 'depositId', 'currency', 'note') })
    .map(({ size, field }) => utf8(`{"userId":"u","depositId":"d","currency":"USD","amount":1,"${field}":" ${'x'.repeat(size)} "}`)),
  // Long keys, escapes, and a key repeated with different escapes.
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => utf8(`{"${'k'.repeat(n)}":1,"${'k'.repeat(n)}":2,"\\u0061":1,"a":2}`)),
  // Odd encodings: UTF-16 with its BOM, Latin-1, invalid and overlong UTF-8, a UTF-8 BOM, NULs.
  fc.json().map((j) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(j, 'utf16le')])),
  fc.string({ maxLength: 2_000 }).map((s) => Buffer.from(`{"userId":"${s.replace(/["\\]/g, '')}é"}`, 'latin1')),
  fc
    .uint8Array({ maxLength: 65_536 })
    .map((b) => Buffer.concat([utf8('{"userId":"'), Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80]), Buffer.from(b), utf8('"}')])),
  fc.json().map((j) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(j), Buffer.from([0, 0])])),
  fc.uint8Array({ maxLength: 65_536 }).map((b) => Buffer.from(b)),
);

const headerName = fc.stringMatching(/^x-[a-z0-9-]{1,40}$/);
// Visible ASCII and Latin-1 (what HTTP/1.1 lets through), up to 2 KB a value.
const headerValue = fc.string({
  unit: fc.oneof(fc.integer({ min: 0x21, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c)),
  maxLength: 2_000,
});

const caseArb = fc.record({
  body: bodyArb,
  path: fc.constantFrom('/platform/pay', '/platform/results', '/platform/other', '/'),
  signature: fc.oneof(
    fc.constant<'none' | 'right' | 'wrong' | 'garbage'>('none'),
    fc.constant<'none' | 'right' | 'wrong' | 'garbage'>('right'),
    fc.constant<'none' | 'right' | 'wrong' | 'garbage'>('wrong'),
    fc.constant<'none' | 'right' | 'wrong' | 'garbage'>('garbage'),
  ),
  extra: fc.array(fc.tuple(headerName, headerValue), { maxLength: 30 }),
  contentType: fc.constantFrom('application/json', 'application/json; charset=utf-16', 'text/plain; charset=latin1', 'application/octet-stream'),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;
const plain: Pick<Case, 'path' | 'extra' | 'contentType'> = { path: '/platform/pay', extra: [], contentType: 'application/json' };

/** The shapes that once broke the proxy, always tried first. */
const ISSUE_CASES: Case[] = [
  // 1 MB, unsigned: nested arrays ending in duplicate keys (a 148 MB findings column, a 3 s stall).
  { ...plain, signature: 'none', body: utf8(`{"userId":"u","x":${'['.repeat(200_000)}{"a":1,"a":2}${']'.repeat(200_000)}}`.padEnd(1_000_000, ' ')) },
  // 10 KB nested 5,000 deep with a wrong signature (the diagnosis overflowed the stack: no answer, no row).
  { ...plain, signature: 'wrong', body: utf8(`{"userId":"u","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`) },
  // A huge value padded with white space in a key field (quoted back in a finding).
  { ...plain, signature: 'wrong', body: utf8(`{"userId":" ${'u'.repeat(500_000)} ","depositId":"d","currency":"USD","amount":1}`) },
];

/** Bytes of every column of one stored row: what the row costs the disk, findings and diagnosis included. */
function rowBytes(row: Record<string, unknown>): number {
  let total = 0;
  for (const value of Object.values(row)) {
    if (value === null || value === undefined) continue;
    total += Buffer.isBuffer(value) || value instanceof Uint8Array ? value.byteLength : Buffer.byteLength(String(value));
  }
  return total;
}

describe('hostile input through the real proxy', () => {
  it('each request is answered and recorded within about twice its size, and the next callback is served', { timeout: 240_000 }, async () => {
    const desk = closeAfterTest(createDesk({ home: tempDir() }));
    expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
    const { url } = await startProxy(desk);
    const db = sqliteOf(desk);
    const count = db.prepare("SELECT COUNT(*) FROM exchanges WHERE direction = 'inbound'").pluck();
    const newest = db.prepare("SELECT * FROM exchanges WHERE direction = 'inbound' ORDER BY id DESC LIMIT 1");
    let n = 0;
    const earlierAnswers = new Set<string>();

    await fc.assert(
      fc.asyncProperty(caseArb, async ({ body, path, signature, extra, contentType }) => {
        const caseId = `case-${++n}`;
        const headers: string[] = ['content-type', contentType, 'x-case', caseId];
        if (signature === 'right') headers.push('x-server-authorization', sign(body, SECRET));
        if (signature === 'wrong') headers.push('x-server-authorization', sign(body, 'not-the-secret'));
        if (signature === 'garbage') headers.push('x-server-authorization', 'Z'.repeat(64));
        for (const [name, value] of extra) headers.push(name, value);
        const sentBytes = body.length + headers.reduce((sum, h) => sum + Buffer.byteLength(h, 'latin1') + 4, 0);

        const before = count.get() as number;
        const reply = await send(url, { path, headers, body });
        expect(reply.status).toBeGreaterThanOrEqual(200);

        expect(count.get()).toBe(before + 1);
        const row = newest.get() as Record<string, unknown>;
        expect(String(row.req_headers)).toContain(caseId);
        // The request's own cost (body, headers, the ids copied into their columns, findings, diagnosis)
        // apart from its answer: the sandbox's answer echoes the ids, and a deposit seen before gets its
        // first answer again (an idempotent operator), sized by the earlier request.
        const answerBytes = row.res_body === null ? 0 : Buffer.byteLength(row.res_body as Buffer);
        const size = rowBytes(row) - answerBytes;
        expect(
          size,
          `row of ${size} bytes besides its answer for ${sentBytes} sent (findings ${String(row.findings).length}, diagnosis ${String(row.diagnosis).length})`,
        ).toBeLessThanOrEqual(2 * sentBytes + 64 * 1024);
        // A repeat is an earlier answer byte for byte; any other answer is sized by its own request.
        const answerHash =
          row.res_body === null
            ? ''
            : createHash('sha256')
                .update(row.res_body as Buffer)
                .digest('hex');
        if (!earlierAnswers.has(answerHash)) expect(answerBytes, `answer of ${answerBytes} bytes for ${sentBytes} sent`).toBeLessThanOrEqual(sentBytes + 1024);
        earlierAnswers.add(answerHash);

        const pay = utf8(JSON.stringify({ userId: 'u-next', depositId: `next-${n}`, currency: 'USD', amount: 1 }));
        const next = await send(url, { body: pay, headers: { 'content-type': 'application/json', 'x-server-authorization': sign(pay, SECRET) } });
        expect(next.status).toBe(200);
      }),
      { numRuns: 40, examples: ISSUE_CASES.map((c) => [c]) },
    );
  });
});
