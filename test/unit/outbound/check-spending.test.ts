// The check's spending plan: a correct operator's books over the generated checks (each followed by the
// refund of what it left open), the stake chosen to fit a finite balance, and the clean-up's refunds.
import { describe, expect, it } from 'vitest';
import { JUDGED_CHECKS } from '../../../src-main/core/checks/matrix';
import { cleanupSteps } from '../../../src-main/core/checks/matrix/cleanup';
import { controlVerdict, saysInsufficientBalance } from '../../../src-main/core/checks/matrix/controls';
import { needsAt, planSpending } from '../../../src-main/core/checks/matrix/plan';
import { needOf } from '../../../src-main/core/checks/matrix/spending';
import type { CaseStep, StepOutcome } from '../../../src-main/core/checks/steps';

const USER = 'u-1';
const bytes = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));
const pay = (depositId: string, amount = 100, extra: Partial<CaseStep> = {}): CaseStep => ({
  label: 'pay',
  to: 'pay',
  body: bytes({ userId: USER, depositId, amount, currency: 'USD' }),
  ...extra,
});
const result = (depositId: string, value: string, amount?: number): CaseStep => ({
  label: value,
  to: 'results',
  body: bytes({ userId: USER, depositId, result: value, ...(amount === undefined ? {} : { amount }) }),
});
const outcome = (status: number | null, body = '{}', label = 'x'): StepOutcome => ({
  label,
  exchangeId: 1,
  path: '/p',
  sentIds: [],
  status,
  body,
  error: null,
});
const input = { checks: JUDGED_CHECKS, userId: USER, amounts: 'integer' as const, currency: 'USD', concurrency: 5 };

describe("a check's need", () => {
  it('counts a pay once, credits back WIN and REFUND, and ignores what a correct operator refuses', () => {
    expect(needOf([pay('a'), result('a', 'WIN', 100)], USER)).toBe(100);
    expect(needOf([pay('a'), pay('a'), pay('b')], USER)).toBe(200);
    expect(needOf([pay('a', 100, { signature: 'none' }), pay('b', 1_000_000_000), pay('c', 0)], USER)).toBe(0);
    expect(needOf([pay('a'), result('a', 'REFUND'), pay('b')], USER)).toBe(100);
  });

  it('plans the whole run within 1,000 minor units at the default stake, and shrinks the stake for less', () => {
    const needs = needsAt(input, 100);
    expect(needs).toBeLessThanOrEqual(1000);
    expect(needs).toBeGreaterThan(100);
    expect(planSpending(input, 100, 1000, false)).toEqual({ stake: 100, needs });
    const small = planSpending(input, 100, 150, false);
    expect(small.stake).toBeLessThan(100);
    expect(small.needs).toBeLessThanOrEqual(150);
    expect(needsAt(input, small.stake + 1)).toBeGreaterThan(150);
    // A stake given by hand is kept, whatever the balance.
    expect(planSpending(input, 100, 150, true).stake).toBe(100);
    // Nothing fits: the smallest unit, and the run blocks as the balance runs out.
    expect(planSpending(input, 100, 1, false).stake).toBe(1);
  });
});

describe('the clean-up and the control', () => {
  it('refunds every accepted pay no result settled, for the user that paid', () => {
    const refund = (userId: string, depositId: string) => bytes({ userId, depositId, result: 'REFUND' });
    const steps = cleanupSteps(
      [
        { step: pay('open'), outcomes: [outcome(200)] },
        { step: pay('refused'), outcomes: [outcome(402)] },
        { step: pay('settled'), outcomes: [outcome(200)] },
        { step: result('settled', 'LOSE'), outcomes: [outcome(200)] },
      ],
      refund,
    );
    expect(steps.map((s) => JSON.parse(Buffer.from(s.body).toString('utf8')) as unknown)).toEqual([{ userId: USER, depositId: 'open', result: 'REFUND' }]);
    expect(steps[0]!.to).toBe('results');
  });

  it('reads INSUFFICIENT_BALANCE from a 4XX error body only, and says what a control confirms', () => {
    const poor = '{"errors":[{"code":"INSUFFICIENT_BALANCE","isClientSafe":true}]}';
    expect(saysInsufficientBalance({ status: 402, body: poor })).toBe(true);
    expect(saysInsufficientBalance({ status: 200, body: poor })).toBe(false);
    expect(saysInsufficientBalance({ status: 401, body: '{"errors":[{"code":"INVALID_SIGNATURE"}]}' })).toBe(false);
    expect(controlVerdict([outcome(200, '{"ok":true}', 'control')]).kind).toBe('confirmed');
    expect(controlVerdict([outcome(402, poor, 'control')])).toEqual({ kind: 'starved', line: `control answered 402 ${poor}` });
    expect(controlVerdict([outcome(403, '{}', 'control')]).kind).toBe('refused');
  });
});
