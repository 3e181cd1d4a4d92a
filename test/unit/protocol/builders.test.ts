import { describe, it, expect } from 'vitest';
import { buildPay, buildResult, followUpOf, toBytes, isDeskMadeId, creditFor } from '../../../src-main/core/protocol/builders';
import { inspect } from '../../../src-main/core/protocol/inspect';
import { RESULT_VALUES } from '../../../src-main/shared/model';
import { TOURNAMENT, json } from './helpers';

const errorsOf = (kind: 'pay' | 'results', body: unknown) => inspect(kind, toBytes(body)).filter((f) => f.level === 'error');

describe('buildPay', () => {
  it('makes a valid pay with a fresh desk depositId and the defaults', () => {
    const pay = buildPay({ userId: 'u-1' });
    expect(errorsOf('pay', pay)).toEqual([]);
    expect(inspect('pay', toBytes(pay))).toEqual([]);
    expect(pay).toMatchObject({ userId: 'u-1', currency: 'USD', amount: 5 });
    // wd- and 32 hex digits: 35 characters, within the VARCHAR(36) operators keep ids in.
    expect(pay.depositId).toMatch(/^wd-[0-9a-f]{32}$/);
    expect(pay.depositId.length).toBeLessThanOrEqual(36);
    expect(isDeskMadeId(pay.depositId)).toBe(true);
    expect(isDeskMadeId('wd-dep-1')).toBe(false);
    expect('tournamentId' in pay).toBe(false);
  });

  it('makes unique ids and takes the given ones', () => {
    expect(buildPay({ userId: 'u' }).depositId).not.toBe(buildPay({ userId: 'u' }).depositId);
    const pay = buildPay({ userId: 'u', depositId: 'd-7', amount: 2.5, currency: 'EUR', tournamentId: TOURNAMENT });
    expect(pay).toEqual({ userId: 'u', depositId: 'd-7', currency: 'EUR', amount: 2.5, tournamentId: TOURNAMENT });
  });

  it('refuses inputs that would make an invalid pay', () => {
    expect(() => buildPay({ userId: 'u', amount: -1 })).toThrow(/cannot build a pay request: amount must be a finite number greater than 0; got -1/);
    expect(() => buildPay({ userId: 'u', tournamentId: 'nope' })).toThrow(/UUID v4/);
  });
});

describe('buildResult', () => {
  it.each(RESULT_VALUES)('%s: valid, no findings at all, fresh room, default game', (result) => {
    const body = buildResult(result, { userId: 'u-1' });
    expect(inspect('results', toBytes(body))).toEqual([]);
    expect(body.result).toBe(result);
    expect(body.roomId).toMatch(/^wd-[0-9a-f]{32}$/);
    expect(body.gameId).toBe('solitaire');
    expect(body.depositId).toMatch(/^wd-[0-9a-f]{32}$/);
  });

  it('amount convention: WIN, DRAW and REFUND carry the stake, LOSE none', () => {
    expect(buildResult('WIN', { userId: 'u' })).toMatchObject({ amount: 5, currency: 'USD' });
    expect(buildResult('DRAW', { userId: 'u' })).toMatchObject({ amount: 5 });
    expect(buildResult('REFUND', { userId: 'u' })).toMatchObject({ amount: 5 });
    const lose = buildResult('LOSE', { userId: 'u' });
    expect('amount' in lose || 'currency' in lose).toBe(false);
    expect(creditFor('WIN', 0.1)).toBe(0.1);
    expect(creditFor('LOSE', 0.1)).toBeNull();
  });

  it('keys follow the order of the spec table', () => {
    const win = buildResult('WIN', { userId: 'u', tournamentId: TOURNAMENT });
    expect(Object.keys(win)).toEqual(['result', 'userId', 'depositId', 'roomId', 'gameId', 'currency', 'amount', 'tournamentId']);
  });

  it('REFUND accepts null room and game; other results refuse them', () => {
    const refund = buildResult('REFUND', { userId: 'u', roomId: null, gameId: null });
    expect(refund).toMatchObject({ roomId: null, gameId: null });
    expect(inspect('results', toBytes(refund))).toEqual([]);
    expect(() => buildResult('WIN', { userId: 'u', roomId: null })).toThrow(/only in a REFUND result/);
  });

  it('refuses fields the spec does not list for the result', () => {
    expect(() => buildResult('REFUND', { userId: 'u', tournamentId: TOURNAMENT })).toThrow(/tournamentId/);
    expect(() => buildResult('LOSE', { userId: 'u', amount: 5 })).toThrow(/LOSE/);
  });
});

describe('followUpOf', () => {
  const pay = buildPay({ userId: 'u-9', amount: 7, currency: 'EUR', tournamentId: TOURNAMENT });

  it.each(RESULT_VALUES)('%s keeps userId and depositId and is valid', (result) => {
    const fromObject = followUpOf(pay, result);
    const fromBytes = followUpOf(toBytes(pay), result);
    for (const body of [fromObject, fromBytes]) {
      expect(body).toMatchObject({ result, userId: 'u-9', depositId: pay.depositId });
      expect(errorsOf('results', body)).toEqual([]);
    }
  });

  it('amounts and currency per result; tournamentId kept except for REFUND', () => {
    expect(followUpOf(pay, 'WIN')).toMatchObject({ amount: 7, currency: 'EUR', tournamentId: TOURNAMENT });
    expect(followUpOf(pay, 'DRAW')).toMatchObject({ amount: 7, currency: 'EUR', tournamentId: TOURNAMENT });
    expect(followUpOf(pay, 'LOSE')).toMatchObject({ tournamentId: TOURNAMENT });
    expect('amount' in followUpOf(pay, 'LOSE')).toBe(false);
    const refund = followUpOf(pay, 'REFUND');
    expect(refund).toMatchObject({ amount: 7, currency: 'EUR' });
    expect('tournamentId' in refund).toBe(false);
    expect(inspect('results', toBytes(refund))).toEqual([]);
  });

  it('overrides win', () => {
    const body = followUpOf(pay, 'REFUND', { amount: 3, roomId: null, gameId: null });
    expect(body).toMatchObject({ depositId: pay.depositId, amount: 3, roomId: null, gameId: null });
    expect(followUpOf(pay, 'WIN', { gameId: 'blackjack', roomId: 'r-5' })).toMatchObject({ gameId: 'blackjack', roomId: 'r-5' });
  });

  it('throws a clear error for a pay it cannot use', () => {
    expect(() => followUpOf({ userId: 'u' }, 'WIN')).toThrow('cannot derive a WIN result from this pay: it has no string depositId');
    expect(() => followUpOf({ depositId: 'd' }, 'LOSE')).toThrow(/no string userId/);
    expect(() => followUpOf(json({ userId: 'u', depositId: 'd', currency: 'USD' }), 'REFUND')).toThrow(/no numeric amount/);
    expect(followUpOf(json({ userId: 'u', depositId: 'd', currency: 'USD' }), 'REFUND', { amount: 4 })).toMatchObject({ amount: 4 });
    expect(() => followUpOf(new Uint8Array([0x7b]), 'WIN')).toThrow(/not UTF-8 JSON/);
    expect(() => followUpOf([1, 2], 'WIN')).toThrow(/not a JSON object/);
  });

  it('toBytes is compact UTF-8 JSON', () => {
    expect(new TextDecoder().decode(toBytes({ a: 'é', b: [1] }))).toBe('{"a":"é","b":[1]}');
  });
});
