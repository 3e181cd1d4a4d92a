import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { extractKeyFields } from '../../../src-main/core/protocol/key-fields';
import { TOURNAMENT, VALID_RESULTS, json, utf8 } from './helpers';

const NONE = { depositId: null, userId: null, result: null, gameId: null, amount: null, currency: null, tournamentId: null };

describe('extractKeyFields', () => {
  it('reads every key field of a result', () => {
    expect(extractKeyFields(json({ ...VALID_RESULTS.WIN, tournamentId: TOURNAMENT }))).toEqual({
      depositId: 'd-1',
      userId: 'u-1',
      result: 'WIN',
      gameId: 'solitaire',
      amount: 10,
      currency: 'USD',
      tournamentId: TOURNAMENT,
    });
  });

  it('nulls absent fields and fields of the wrong type', () => {
    expect(extractKeyFields(json({ depositId: 7, userId: 'u', amount: '5', gameId: null }))).toEqual({ ...NONE, userId: 'u' });
  });

  it('nulls an amount that overflowed to Infinity', () => {
    expect(extractKeyFields(utf8('{"amount":1e400}')).amount).toBeNull();
  });

  it('reads through a BOM, and gives all nulls for non-objects and broken bytes', () => {
    expect(extractKeyFields(new Uint8Array([0xef, 0xbb, 0xbf, ...json({ userId: 'u' })])).userId).toBe('u');
    expect(extractKeyFields(utf8('[1]'))).toEqual(NONE);
    expect(extractKeyFields(utf8('null'))).toEqual(NONE);
    expect(extractKeyFields(utf8('{"userId":'))).toEqual(NONE);
    expect(extractKeyFields(new Uint8Array([0x7b, 0xff, 0x7d]))).toEqual(NONE);
    expect(extractKeyFields(new Uint8Array())).toEqual(NONE);
  });

  it('never throws and always returns the seven fields', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array(),
          fc.jsonValue().map((v) => json(v)),
        ),
        (bytes) => {
          expect(Object.keys(extractKeyFields(bytes)).sort()).toEqual(Object.keys(NONE).sort());
        },
      ),
    );
  });
});
