import { describe, expect, it } from 'vitest';
import { nonCanonical, payBytes } from '../../../src-main/core/checks/bodies';
import { errorBodyProblem } from '../../../src-main/core/checks/judge';
import { diffBodies } from '../../../src-main/core/outbound/diff';
import { inspect } from '../../../src-main/core/protocol';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const input = { userId: 'ü-user', depositId: 'wd-x' };

describe('non-canonical bodies', () => {
  const compact = text(payBytes(input));
  it.each(Object.entries(nonCanonical))('%s means the same pay as the compact one, in other bytes', (name, make) => {
    const raw = text(make(input));
    expect(raw).not.toBe(compact);
    const value = JSON.parse(raw) as Record<string, unknown>;
    expect(value).toMatchObject({ userId: 'ü-user', depositId: 'wd-x', currency: 'USD' });
    expect(inspect('pay', make(input)).filter((f) => f.level === 'error')).toEqual([]);
    // What a re-serializing operator would sign differs from the bytes sent.
    if (name !== 'keyOrder') expect(JSON.stringify(value)).not.toBe(raw);
  });

  it('combines every oddity in the body the conformance check sends', () => {
    const raw = text(nonCanonical.all(input));
    expect(raw).toContain('\n  "amount": 1.50,');
    expect(raw).toContain('"currency": "\\u0055\\u0053\\u0044"');
    expect(raw.indexOf('"amount"')).toBeLessThan(raw.indexOf('"userId"'));
    expect(raw.endsWith('}\n')).toBe(true);
  });
});

describe('error body judgement', () => {
  it('accepts the body of section 2.6 and names each way to get it wrong', () => {
    expect(errorBodyProblem('{"errors":[{"code":"INSUFFICIENT_BALANCE","isClientSafe":true}]}')).toBeNull();
    expect(errorBodyProblem('')).toMatch(/no body/);
    expect(errorBodyProblem('oops')).toMatch(/not JSON/);
    expect(errorBodyProblem('{"error":"x"}')).toMatch(/no "errors" array/);
    expect(errorBodyProblem('{"errors":[]}')).toMatch(/empty/);
    expect(errorBodyProblem('{"errors":[{"code":1,"isClientSafe":true}]}')).toMatch(/errors\[0\]\.code is a number/);
    expect(errorBodyProblem('{"errors":[{"code":"X","isClientSafe":"true"}]}')).toMatch(/errors\[0\]\.isClientSafe is a string/);
  });
});

describe('body diff', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  it('lists changed, added and removed fields by path', () => {
    const entries = diffBodies('body', b64('{"a":1,"b":{"c":[1,2]},"gone":true}'), b64('{"a":2,"b":{"c":[1,3]},"new":null}'));
    expect(entries).toEqual([
      { area: 'body', path: '$.a', before: 1, after: 2 },
      { area: 'body', path: '$.b.c[1]', before: 2, after: 3 },
      { area: 'body', path: '$.gone', before: true, after: undefined },
      { area: 'body', path: '$.new', before: undefined, after: null },
    ]);
  });

  it('tells same values in other bytes apart from no change at all', () => {
    expect(diffBodies('body', b64('{"a":1}'), b64('{"a":1}'))).toEqual([]);
    expect(diffBodies('body', b64('{"a":1}'), b64('{ "a": 1.0 }'))).toEqual([{ area: 'body', path: '$bytes', before: 'same values', after: 'same values, different bytes' }]);
    expect(diffBodies('body', b64('plain'), b64('other'))).toEqual([{ area: 'body', path: '$', before: 'plain', after: 'other' }]);
  });
});
