// The proxy's group statement sends its arrays in binary (binary-array.ts); what reaches the table must be
// what the arrays' text form (node-postgres's own encoding of a JS array) put there: compared on a real
// PostgreSQL, array by array for every element type and its edge cases, then row by row for whole groups.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { connectPostgres } from '../../../src-main/core/store/postgres';
import { binaryArray, type ArrayElement } from '../../../src-main/core/store/postgres/binary-array';
import { groupArrays, groupStatement } from '../../../src-main/core/store/postgres/group-statement';
import { pgText } from '../../../src-main/core/store/postgres/pg-text';
import { RowBuffer } from '../../../src-main/core/store/postgres/row-buffer';
import { inboundRow } from '../../helpers/exchanges';
import { migratedDatabase, usePostgres } from '../../helpers/postgres';

const server = usePostgres();

const LARGE_BODY = randomBytes(2 * 1024 * 1024);
const bytes = Uint8Array.from([9, 0, 1, 255, 92, 120, 34, 123]);

/** Each element type's edge cases, as the writers hand them over (NUL already replaced, as pgText does). */
const CASES: Record<ArrayElement, unknown[]> = {
  int8: [
    0,
    1,
    -1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 32 + 5,
    -(2 ** 32) - 5,
    2 ** 53 - 1,
    -(2 ** 53) + 1,
    2 ** 53 + 2,
    2 ** 62,
    -(2 ** 62),
    2n ** 63n - 1n,
    -(2n ** 63n),
    null,
  ],
  int4: [0, -1, 2 ** 31 - 1, -(2 ** 31), null, 7],
  float8: [0, -0, 1.5, -2.25, 0.1, 1 / 3, 1e308, 5e-324, -1e-310, Infinity, -Infinity, NaN, 123456789.123456789, null],
  bool: [true, false, null],
  text: [
    '',
    'plain',
    'quote " backslash \\ braces {} comma , and NULL',
    'NULL',
    ' spaced ',
    'é € 日本',
    'non-BMP 😀 𝄞',
    'lone high \uD800 surrogate',
    '\uDC00 lone low',
    pgText('nul \u0000 inside'),
    '\\x00ff',
    'x'.repeat(47),
    'x'.repeat(48),
    'x'.repeat(49),
    'ÿ latin-1, two bytes in UTF-8',
    '\u007f\u0080',
    'x'.repeat(200_000),
    null,
  ],
  bytea: [Buffer.alloc(0), Buffer.from([0, 1, 255]), Buffer.from('\\x00'), bytes.subarray(2, 6), LARGE_BODY, null],
};

/** The array as the server holds it (array_send's bytes) and as its text, from a text and a binary parameter. */
async function bothWays(c: pg.Client, element: ArrayElement, values: unknown[]): Promise<{ text: string; binary: string; same: boolean }> {
  const r = await c.query<{ text: string; binary: string; same: boolean }>(
    `SELECT $1::${element}[]::text AS text, $2::${element}[]::text AS binary, array_send($1::${element}[]) = array_send($2::${element}[]) AS same`,
    [values, binaryArray(element, values)],
  );
  return r.rows[0]!;
}

describe('binary arrays on PostgreSQL', () => {
  it('hold exactly what the text form of the same array holds, for every element type and edge case', async () => {
    const c = await connectPostgres(await server().newDatabase());
    try {
      for (const [element, values] of Object.entries(CASES) as Array<[ArrayElement, unknown[]]>) {
        for (const array of [values, [], [null], values.slice().reverse()]) {
          const r = await bothWays(c, element, array);
          expect(r.binary, element).toBe(r.text);
          expect(r.same, element).toBe(true);
        }
      }
      // Read back, a few values whose stored form is worth stating: -0 as 0 (the text form wrote "0"), a lone
      // surrogate and a NUL as U+FFFD, a body's every byte.
      const read = async (sql: string, element: ArrayElement, values: unknown[]): Promise<unknown> =>
        (await c.query<{ v: unknown }>(sql, [binaryArray(element, values)])).rows[0]!.v;
      expect(await read('SELECT ($1::float8[])[1]::text AS v', 'float8', [-0])).toBe('0');
      expect(await read('SELECT $1::text[] AS v', 'text', ['a\uD800b', pgText('n\u0000l'), '😀'])).toEqual(['a\uFFFDb', 'n\uFFFDl', '😀']);
      expect(Buffer.compare((await read('SELECT ($1::bytea[])[1] AS v', 'bytea', [LARGE_BODY])) as Buffer, LARGE_BODY)).toBe(0);
      expect(await read('SELECT $1::int8[]::text AS v', 'int8', [-(2n ** 63n), 2 ** 62])).toBe('{-9223372036854775808,4611686018427388000}');
    } finally {
      await c.end();
    }
  }, 60_000);

  it('refuse a value the element type cannot hold, naming it, where the text form had the server refuse it', async () => {
    const c = await connectPostgres(await server().newDatabase());
    try {
      const refused: Array<[ArrayElement, unknown, RegExp]> = [
        ['int8', 1.5, /int8 array element cannot be 1\.5: not an integer/],
        ['int8', 2 ** 63, /out of the 64-bit range/],
        ['int8', -(2 ** 63), /out of the 64-bit range/],
        ['int8', 2n ** 63n, /out of the 64-bit range/],
        ['int4', 2 ** 31, /int4 array element cannot be 2147483648: out of the 32-bit range/],
        ['int4', 0.5, /not an integer/],
      ];
      for (const [element, value, message] of refused) {
        expect(() => binaryArray(element, [1, value]), `${element} ${String(value)}`).toThrow(message);
        await expect(c.query(`SELECT $1::${element}[]`, [[1, value]]), `${element} ${String(value)} as text`).rejects.toThrow();
      }
      expect(() => binaryArray('text', ['a\u0000b'])).toThrow(/cannot hold U\+0000/);
      expect(() => binaryArray('int8', ['12'])).toThrow(TypeError);
      expect(() => binaryArray('float8', ['1.5'])).toThrow(TypeError);
      expect(() => binaryArray('bool', [1])).toThrow(TypeError);
      expect(() => binaryArray('text', [12])).toThrow(TypeError);
      expect(() => binaryArray('bytea', ['\\x00'])).toThrow(TypeError);
    } finally {
      await c.end();
    }
  });

  it("write a group's rows as the text form of its arrays wrote them, new rows and older rows' answers alike", async () => {
    const url = await migratedDatabase(server());
    const c = await connectPostgres(url, { numbers: true });
    try {
      const answer = (i: number) => ({
        response: { status: 200 + i, headers: [['x-odd', `v\uD800${i}`]] as Array<[string, string]>, body: i === 2 ? LARGE_BODY : Buffer.from(`{"n":${i}}`) },
        error: i === 1 ? pgText('cut \u0000 short') : null,
        durationMs: i === 3 ? -0 : 12.5 + i / 3,
        completedAt: `2026-01-01T00:00:0${i}.000Z`,
      });
      // Two groups: new rows (one answered within its group), then the others' answers and findings.
      const first = new RowBuffer([1, 2, 3, 4]);
      first.record(inboundRow({ body: Buffer.alloc(0), size: 0, keys: { ...inboundRow().keys, depositId: '', amount: -0 } }));
      first.record(
        inboundRow({
          body: LARGE_BODY,
          size: 2 ** 40,
          truncated: true,
          keys: { ...inboundRow().keys, depositId: 'dep \uDC00 😀', userId: 'u\u0000x', amount: NaN, result: 'NULL' },
          sourceId: 1,
          tags: ['a"b', 'c\\d'],
          scheme: 'https',
          profile: 'p,{q}',
        }),
      );
      first.record(inboundRow({ remoteAddress: null, signature: null, keys: { ...inboundRow().keys, amount: 1e-310 } }));
      first.finish(3, answer(3));
      first.record(inboundRow({ findings: [{ level: 'error', path: '$.amount', message: 'bad "amount"' }] }));
      const second = new RowBuffer([5]);
      second.finish(1, answer(1));
      second.finish(2, answer(2));
      second.addFindings(2, [{ level: 'warning', path: '$', message: 'late \u00e9' }]);
      second.addFindings(4, [{ level: 'error', path: '$.x', message: 'second' }]);
      second.record(inboundRow({ kind: 'results' }));
      const groups = [first.statements(), second.statements()];

      const rows = async () => (await c.query('SELECT * FROM exchanges ORDER BY id')).rows as Array<Record<string, unknown>>;
      for (const g of groups) {
        const binary = groupStatement(g, 'wd_test');
        await c.query({ text: binary.text, values: [...groupArrays(g), ...binary.values!.slice(groupArrays(g).length)] });
      }
      const asText = await rows();
      await c.query('DELETE FROM exchanges');
      for (const g of groups) await c.query(groupStatement(g, 'wd_test'));
      const asBinary = await rows();

      expect(asBinary).toHaveLength(5);
      // Bytes compared as base64: a deep equality walks a 2 MB Buffer element by element for half a minute.
      const comparable = (rs: Array<Record<string, unknown>>) =>
        rs.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Buffer.isBuffer(v) ? v.toString('base64') : v])));
      expect(comparable(asBinary)).toEqual(comparable(asText));
      const [r1, r2, r3, r4] = asBinary;
      expect(r1!.error).toBe('cut \uFFFD short');
      expect(r1!.amount).toBe(0);
      expect(Buffer.compare(r2!.req_body as Buffer, LARGE_BODY)).toBe(0);
      expect(Buffer.compare(r2!.res_body as Buffer, LARGE_BODY)).toBe(0);
      expect(r2).toMatchObject({
        req_size: 2 ** 40,
        truncated: true,
        amount: null,
        deposit_id: 'dep \uFFFD 😀',
        user_id: 'u\uFFFDx',
        result: 'NULL',
        source_id: 1,
      });
      expect(JSON.parse(r2!.findings as string)).toEqual([{ level: 'warning', path: '$', message: 'late \u00e9' }]);
      expect(r3).toMatchObject({ remote_address: null, verdict: null, amount: 1e-310, res_status: 203, duration_ms: 0 });
      expect(r4).toMatchObject({ error_count: 2 });
    } finally {
      await c.end();
    }
  }, 60_000);
});
