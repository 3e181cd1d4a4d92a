import { describe, expect, it } from 'vitest';
import { balanceDelta, readBalance } from '../../../src-main/core/balance';

describe('balances read exactly in the profile amounts', () => {
  it('converts minor units to a decimal profile and major units to an integer one, exactly', () => {
    expect(readBalance(1050, 'minor', 'integer')).toEqual({ ok: true, value: '1050' });
    expect(readBalance(1050, 'minor', 'decimal')).toEqual({ ok: true, value: '10.5' });
    expect(readBalance('10.50', 'major', 'integer')).toEqual({ ok: true, value: '1050' });
    expect(readBalance(0.1, 'major', 'integer')).toEqual({ ok: true, value: '10' });
    expect(readBalance('12345678901234567890.25', 'major', 'decimal')).toEqual({ ok: true, value: '12345678901234567890.25' });
    expect(readBalance(-3, 'major', 'decimal', 0)).toEqual({ ok: true, value: '-3' });
    expect(readBalance('7.5', 'major', 'integer', 3)).toEqual({ ok: true, value: '7500' });
  });

  it('refuses what cannot be read exactly, with the reason', () => {
    expect(readBalance(10.5, 'minor', 'integer')).toMatchObject({ ok: false, reason: expect.stringContaining('fraction') });
    expect(readBalance('1.005', 'major', 'integer')).toMatchObject({ ok: false, reason: expect.stringContaining("currency's 2") });
    expect(readBalance(12345678901234567, 'minor', 'integer')).toMatchObject({ ok: false, reason: expect.stringContaining('significant digits') });
    expect(readBalance('ten', 'minor', 'integer')).toMatchObject({ ok: false, reason: expect.stringContaining('not a number') });
    expect(readBalance(null, 'minor', 'integer')).toMatchObject({ ok: false });
    expect(readBalance(true, 'minor', 'integer')).toMatchObject({ ok: false });
  });

  it('gives the delta of two readings exactly', () => {
    expect(balanceDelta('10.3', '10.1', 'decimal')).toBe('-0.2');
    expect(balanceDelta('100000', '99900', 'integer')).toBe('-100');
    expect(balanceDelta('1', '2.5', 'decimal')).toBe('1.5');
  });
});
