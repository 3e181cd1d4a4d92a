// The parts of the matrix's verdict that need no operator: the money verdict without readings, a 404 that
// is an answer, words about a field, and the generator's stable ids.
import { describe, expect, it } from 'vitest';
import { notActedWords } from '../../../src-main/core/checks/judge';
import { CONFORMANCE_CHECK_IDS, MATRIX } from '../../../src-main/core/checks/matrix';
import { judgeAnswer, notServed } from '../../../src-main/core/checks/matrix/answer-verdict';
import { judgeMoney } from '../../../src-main/core/checks/matrix/money-verdict';
import type { StepOutcome } from '../../../src-main/core/checks/steps';

const outcome = (status: number, body: string): StepOutcome => ({
  label: 'pay',
  exchangeId: 1,
  path: '/acme/pay',
  sentIds: ['u-1'],
  status,
  body,
  error: null,
});

describe('exact money', () => {
  it('is not observable without both readings, and never passes then', () => {
    const none = judgeMoney(-100, { kind: 'unavailable', reason: 'the probe answered 404' }, { kind: 'reading', value: '900', source: 'probe' }, 'set a probe');
    expect(none).toMatchObject({ outcome: 'not-observable', howToObserve: 'set a probe' });
    expect(none.reason).toContain('404');
    const wrong = judgeMoney(0, { kind: 'reading', value: '1000', source: 'probe' }, { kind: 'reading', value: '1100', source: 'probe' }, '');
    expect(wrong).toMatchObject({ outcome: 'fail', evidence: { delta: '100', expectedDelta: '0' } });
  });
});

describe('answers before words', () => {
  it('reads a 404 with the spec error body, or from a path that answered 2XX, as an answer', () => {
    const userNotFound = outcome(404, '{"errors":[{"code":"USER_NOT_FOUND","isClientSafe":false}]}');
    expect(notServed(userNotFound, { answered2xx: new Set() })).toBe(false);
    expect(notServed(outcome(404, 'Not Found'), { answered2xx: new Set() })).toBe(true);
    expect(notServed(outcome(404, 'Not Found'), { answered2xx: new Set(['/acme/pay']) })).toBe(false);
    expect(judgeAnswer('no-5XX', userNotFound, { answered2xx: new Set() }).pass).toBe(true);
  });

  it('passes a refusal only when the client SDK can show it', () => {
    const memory = { answered2xx: new Set<string>() };
    expect(judgeAnswer('error-body', outcome(400, '{"errors":[{"code":"INSUFFICIENT_BALANCE","isClientSafe":true}]}'), memory)).toMatchObject({
      pass: true,
      clientSees: 'handleError receives INSUFFICIENT_BALANCE',
    });
    const unsafe = judgeAnswer('error-body', outcome(400, '{"errors":[{"code":"INSUFFICIENT_BALANCE","isClientSafe":false}]}'), memory);
    expect(unsafe.pass).toBe(false);
    expect(unsafe.clientSees).toMatch(/^nothing reaches handleError \(errors\[0\]\.isClientSafe is false\)/);
  });

  it('does not read words about a field as a refusal of the deposit', () => {
    expect(notActedWords({ body: '{"status":"ok","warnings":["ignored unknown field"]}', sentIds: [] })).toBeNull();
    expect(notActedWords({ body: '{"status":"ignored"}', sentIds: [] })).toContain('ignored');
  });
});

describe('the generator', () => {
  it('crosses every signature fault with every endpoint, and gives every check a rule and a unique id', () => {
    const faults = MATRIX.filter((c) => c.id.startsWith('signature.'));
    expect(faults).toHaveLength(8 * 5);
    expect(new Set(MATRIX.map((c) => c.id)).size).toBe(MATRIX.length);
    for (const c of MATRIX) expect(c.rule.section, c.id).toMatch(/^\d/);
    expect(CONFORMANCE_CHECK_IDS).not.toContain('unknown-game-id');
    expect(CONFORMANCE_CHECK_IDS.slice(0, 5)).toEqual(['pay.valid', 'results.WIN.valid', 'results.DRAW.valid', 'results.LOSE.valid', 'results.REFUND.valid']);
  });
});
