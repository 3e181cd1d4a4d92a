import { describe, expect, it } from 'vitest';
import { amountFindings, amountProblem, defaultStake } from '../../../src-main/core/protocol/amounts';
import { json } from './helpers';

const pay = (amount: unknown) => json({ userId: 'u', depositId: 'd', currency: 'USD', amount });

describe('the amounts rule', () => {
  it('makes a fraction an error on an integer profile, for pays and results', () => {
    const [f] = amountFindings('pay', pay(1.5), 'integer');
    expect(f).toMatchObject({ level: 'error', path: '$.amount' });
    expect(f!.message).toContain('integers in minor units');
    expect(amountFindings('results', json({ result: 'WIN', amount: 10.25 }), 'integer')).toHaveLength(1);
    expect(
      amountFindings('pay', { depositId: null, userId: null, result: null, gameId: null, amount: 0.5, currency: null, tournamentId: null }, 'integer'),
    ).toHaveLength(1);
  });

  it('leaves integers, decimal profiles, other paths and what other rules judge alone', () => {
    expect(amountFindings('pay', pay(100), 'integer')).toEqual([]);
    expect(amountFindings('pay', pay(1e2), 'integer')).toEqual([]);
    expect(amountFindings('pay', pay(1.5), 'decimal')).toEqual([]);
    expect(amountFindings('other', pay(1.5), 'integer')).toEqual([]);
    // Non-positive and non-numeric amounts are errors of the field rules already.
    expect(amountFindings('pay', pay(-1.5), 'integer')).toEqual([]);
    expect(amountFindings('pay', pay('1.5'), 'integer')).toEqual([]);
    expect(amountFindings('pay', new Uint8Array([0xff]), 'integer')).toEqual([]);
  });

  it('says why an invented amount does not fit the mode', () => {
    expect(defaultStake('integer')).toBe(100);
    expect(defaultStake('decimal')).toBe(1.5);
    expect(amountProblem(100, 'integer')).toBeNull();
    expect(amountProblem(1.5, 'decimal')).toBeNull();
    expect(amountProblem(1.5, 'integer')).toContain('integers in minor units');
    expect(amountProblem(0, 'decimal')).toContain('greater than 0');
    expect(amountProblem(-5, 'integer')).toContain('greater than 0');
    expect(amountProblem(Number.NaN, 'integer')).toContain('finite');
  });
});
