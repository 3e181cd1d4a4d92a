// Generated hostile bodies and headers through the real proxy: deep, wide, duplicate keys, huge strings,
// odd encodings, with a wrong signature so that the diagnosis runs too. Whatever arrives is answered,
// recorded (one row each), its stored findings stay within their bound, and the next request is served.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findingsBudget } from '../../src-main/core/capture';
import { MAX_FINDING_MESSAGE } from '../../src-main/core/capture/bounds';
import { sign } from '../../src-main/core/signing';
import { openDesk } from '../helpers/desk';
import { captures, latest, send, startProxy } from '../integration/proxy/helpers';

const SECRET = 'hostile-capture-secret-71c2';

const deep = fc.integer({ min: 1, max: 3000 }).map((n) => `{"a":${'['.repeat(n)}1${']'.repeat(n)}}`);
const duplicates = fc.integer({ min: 1, max: 3000 }).map((n) => `{"userId":"u",${Array.from({ length: n }, () => '"k":1').join(',')}}`);
const wide = fc.integer({ min: 1, max: 5000 }).map((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`);
const nestedDuplicates = fc.integer({ min: 1, max: 200 }).map((n) => `{"x":${'['.repeat(n)}{${'"d":1,'.repeat(500)}"d":2}${']'.repeat(n)}}`);
const huge = fc.integer({ min: 1, max: 200_000 }).map((n) => `{"userId":"${'u'.repeat(n)}","depositId":"d","currency":"USD","amount":1}`);
const odd = fc.uint8Array({ minLength: 0, maxLength: 2000 }).map((b) => Buffer.from(b).toString('latin1'));
const bodyArb = fc.oneof(deep, duplicates, wide, nestedDuplicates, huge, odd);
const headerArb = fc.array(fc.tuple(fc.stringMatching(/^x-[a-z0-9-]{1,20}$/), fc.stringMatching(/^[ -~]{0,200}$/)), { maxLength: 40 });

describe('hostile input through the real proxy', () => {
  it('is answered, recorded with bounded findings, and the next request is served', { timeout: 120_000 }, async () => {
    const desk = openDesk();
    await desk.saveProfile({ name: 'p', secret: SECRET });
    await desk.useProfile('p');
    const { url } = await startProxy(desk);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(bodyArb, headerArb, fc.boolean(), async (text, extra, signed) => {
        const body = Buffer.from(text, 'latin1');
        const before = (await captures(desk, 1000)).length;
        const headers: string[] = ['content-type', 'application/json', 'x-server-authorization', signed ? sign(body, 'another-secret') : 'f'.repeat(64)];
        for (const [k, v] of extra) headers.push(k, v);
        const reply = await send(url, { body, headers });
        expect(reply.status).toBeGreaterThanOrEqual(200);
        expect((await captures(desk, 1000)).length).toBe(before + 1);
        const row = await latest(desk);
        expect(Buffer.byteLength(JSON.stringify(row.findings))).toBeLessThanOrEqual(findingsBudget(body.length));
        const next = JSON.stringify({ userId: 'u', depositId: `next-${++n}`, currency: 'USD', amount: 1 });
        const served = await send(url, {
          body: next,
          headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(next), SECRET) },
        });
        expect(served.status).toBe(200);
      }),
      { numRuns: 30 },
    );
  });

  it('keeps room in the findings budget for the sandbox note added once the request is answered', async () => {
    const desk = openDesk();
    await desk.saveProfile({ name: 'p', secret: SECRET });
    await desk.useProfile('p');
    const { url } = await startProxy(desk);
    // Found by the property above: a body whose inspection fills the budget, then the sandbox's refusal note.
    const body = Buffer.from(`{${Array.from({ length: 731 }, (_, i) => `"k${i}":${i}`).join(',')}}`);
    await send(url, { body, headers: ['content-type', 'application/json', 'x-server-authorization', 'f'.repeat(64)] });
    const row = await latest(desk);
    expect(row.findings.at(-1)!.message).toMatch(/^sandbox operator: refused with 401/);
    expect(Buffer.byteLength(JSON.stringify(row.findings))).toBeLessThanOrEqual(findingsBudget(body.length));
  });

  it("bounds the sandbox's note that quotes a long depositId paid twice, recorded with the row", async () => {
    const desk = openDesk();
    await desk.saveProfile({ name: 'p', secret: SECRET });
    await desk.useProfile('p');
    const { url } = await startProxy(desk);
    const body = Buffer.from(JSON.stringify({ userId: 'u', depositId: 'd'.repeat(2_000), currency: 'USD', amount: 1 }));
    const headers = { 'content-type': 'application/json', 'x-server-authorization': sign(body, SECRET) };
    expect((await send(url, { body, headers })).status).toBe(200);
    expect((await send(url, { body, headers })).status).toBe(200);
    const row = await latest(desk);
    // The note (about 2,000 characters) does not fit the room kept for answer notes: it is counted, not stored whole.
    for (const f of row.findings) expect(f.message.length).toBeLessThanOrEqual(MAX_FINDING_MESSAGE);
    expect(row.findings.at(-1)!.message).toMatch(/more findings not stored/);
    expect(Buffer.byteLength(JSON.stringify(row.findings))).toBeLessThanOrEqual(findingsBudget(body.length));
  });
});
