import { describe, expect, it } from 'vitest';
import { Bodies } from '../../../src-main/core/checks/bodies';
import { errorBodyProblem, judgeStep, notActedWords } from '../../../src-main/core/checks/judge';
import type { StepOutcome } from '../../../src-main/core/checks/steps';
import { diffBodies } from '../../../src-main/core/outbound/diff';
import { inspect } from '../../../src-main/core/protocol';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const input = { userId: 'ü-user', depositId: 'wd-x' };

describe('non-canonical bodies', () => {
  const decimal = new Bodies('decimal', 1.5);
  const compact = text(decimal.pay(input));
  const makers: Array<[string, (b: Bodies) => Uint8Array]> = [
    ['pretty', (b) => b.pretty(input)],
    ['decimalSpelling', (b) => b.decimalSpelling(input)],
    ['escapes', (b) => b.escapes(input)],
    ['keyOrder', (b) => b.keyOrder(input)],
    ['allNonCanonical', (b) => b.allNonCanonical(input)],
  ];
  it.each(makers)('%s means the same pay as the compact one, in other bytes', (name, make) => {
    const raw = text(make(decimal));
    expect(raw).not.toBe(compact);
    const value = JSON.parse(raw) as Record<string, unknown>;
    expect(value).toMatchObject({ userId: 'ü-user', depositId: 'wd-x', currency: 'USD' });
    expect(inspect('pay', make(decimal)).filter((f) => f.level === 'error')).toEqual([]);
    // What a re-serializing operator would sign differs from the bytes sent.
    if (name !== 'keyOrder') expect(JSON.stringify(value)).not.toBe(raw);
  });

  it('combines every oddity in the body the conformance check sends', () => {
    const raw = text(decimal.allNonCanonical(input));
    expect(raw).toContain('\n  "amount": 1.50,');
    expect(raw).toContain('"currency": "\\u0055\\u0053\\u0044"');
    expect(raw.indexOf('"amount"')).toBeLessThan(raw.indexOf('"userId"'));
    expect(raw.endsWith('}\n')).toBe(true);
  });

  it('writes every amount as a plain integer on an integer profile', () => {
    const integer = new Bodies('integer', 100);
    for (const [, make] of makers) expect(Number.isInteger((JSON.parse(text(make(integer))) as { amount: number }).amount)).toBe(true);
    expect(text(integer.allNonCanonical(input))).toContain('"amount": 100,');
    expect(text(integer.decimalSpelling(input))).toContain('"amount":100');
    expect(integer.edgeAmounts().map((a) => a.raw)).toEqual(['1', '100', '0', '-5']);
    expect(decimal.edgeAmounts().map((a) => a.raw)).toEqual(['0.01', '1e2', '0', '-5']);
  });
});

describe('judging answers', () => {
  const outcome = (status: number | null, body: string | null, sentIds: string[] = []): StepOutcome => ({
    label: 'pay',
    exchangeId: 1,
    path: '/acme/pay',
    sentIds,
    status,
    body,
    error: status === null ? 'ECONNREFUSED' : null,
  });

  it('never passes a 404 or a 405, whatever was expected', () => {
    for (const status of [404, 405]) {
      for (const expectation of ['accepted', '2XX', '200', '4XX', 'error-body', 'no-5XX'] as const) {
        const j = judgeStep(expectation, outcome(status, '{"errors":[{"code":"NOT_FOUND","isClientSafe":false}]}'));
        expect(j.pass).toBe(false);
        expect(j.reason).toContain('does not serve /acme/pay');
      }
    }
  });

  it('does not take a 2XX that says the request was ignored as an acceptance, and quotes it', () => {
    expect(judgeStep('accepted', outcome(200, 'Deposit ignored'))).toEqual({
      pass: false,
      reason: 'answered 200, but the body says "Deposit ignored": the request was not accepted',
    });
    expect(judgeStep('accepted', outcome(200, '{"status":"unknown deposit"}')).pass).toBe(false);
    expect(judgeStep('2XX', outcome(200, '{"status":"ignored"}')).pass).toBe(true);
    expect(judgeStep('accepted', outcome(200, '{"ok":true}')).pass).toBe(true);
    // An id echoed back is not read for its words.
    expect(notActedWords(outcome(200, '{"userId":"unknown-user-7","ok":true}', ['unknown-user-7']))).toBeNull();
  });

  it('fails a 2XX where a refusal was expected, and a 5XX where any answer but a server error would do', () => {
    expect(judgeStep('4XX', outcome(200, '{"ok":true}')).reason).toContain('accepted what it should refuse');
    expect(judgeStep('no-5XX', outcome(500, 'Internal Server Error')).pass).toBe(false);
    expect(judgeStep('no-5XX', outcome(400, '{"errors":[]}')).pass).toBe(true);
    expect(judgeStep('2XX', outcome(null, null)).reason).toContain('no HTTP answer');
  });
});

describe('error body judgment', () => {
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
    expect(diffBodies('body', b64('{"a":1}'), b64('{ "a": 1.0 }'))).toEqual([
      { area: 'body', path: '$bytes', before: 'same values', after: 'same values, different bytes' },
    ]);
    expect(diffBodies('body', b64('plain'), b64('other'))).toEqual([{ area: 'body', path: '$', before: 'plain', after: 'other' }]);
  });
});
