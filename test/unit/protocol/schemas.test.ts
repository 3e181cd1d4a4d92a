import { describe, it, expect } from 'vitest';
import {
  payRequestSchema,
  resultRequestSchema,
  tokenRequestSchema,
  tokenResponseSchema,
  paymentErrorSchema,
  RESULT_SCHEMAS,
} from '../../../src-main/core/protocol/schemas';
import { RESULT_FIELD_TABLE } from '../../../src-main/core/protocol/field-rules';
import { inspect } from '../../../src-main/core/protocol/inspect';
import { RESULT_VALUES } from '../../../src-main/shared/model';
import { TOURNAMENT, VALID_PAY, VALID_RESULTS, json, levels } from './helpers';

// A value of the right type for each field, used to add a field the valid fixture does not have.
const SAMPLE: Record<string, unknown> = {
  roomId: 'r-9',
  gameId: 'blocks',
  currency: 'EUR',
  amount: 3,
  tournamentId: TOURNAMENT,
};

describe('the zod schemas agree with the field table and with inspect()', () => {
  for (const result of RESULT_VALUES) {
    for (const [field, presence] of Object.entries(RESULT_FIELD_TABLE[result])) {
      const base: Record<string, unknown> = { ...VALID_RESULTS[result] };

      it(`${result}: leaving out ${field} (${presence})`, () => {
        const body = { ...base };
        delete body[field];
        const allowed = presence === 'optional' || presence === 'absent';
        expect(RESULT_SCHEMAS[result].safeParse(body).success).toBe(allowed);
        expect(levels(inspect('results', json(body)), 'error').length === 0).toBe(allowed);
      });

      it(`${result}: ${field} set to null (${presence})`, () => {
        const body = { ...base, [field]: null };
        // An absent field is ignored whatever its value; only nullable fields accept null otherwise.
        const schemaAccepts = presence === 'nullable' || presence === 'absent';
        if (field !== 'result') expect(RESULT_SCHEMAS[result].safeParse(body).success).toBe(schemaAccepts);
        expect(levels(inspect('results', json(body)), 'error').length === 0).toBe(schemaAccepts);
      });

      if (field in SAMPLE) {
        it(`${result}: ${field} present with a valid value (${presence})`, () => {
          const body = { ...base, [field]: SAMPLE[field] };
          expect(RESULT_SCHEMAS[result].safeParse(body).success).toBe(true);
          const findings = inspect('results', json(body));
          expect(levels(findings, 'error')).toEqual([]);
          expect(levels(findings, 'info').length).toBe(presence === 'absent' ? 1 : 0);
        });
      }
    }
  }

  it('the discriminated union picks the variant from result', () => {
    expect(resultRequestSchema.safeParse(VALID_RESULTS.LOSE).success).toBe(true);
    expect(resultRequestSchema.safeParse({ ...VALID_RESULTS.WIN, result: 'LOSE', currency: undefined }).success).toBe(true);
    expect(resultRequestSchema.safeParse({ ...VALID_RESULTS.LOSE, result: 'WIN' }).success).toBe(false);
    expect(resultRequestSchema.safeParse({ ...VALID_RESULTS.WIN, result: 'TIE' }).success).toBe(false);
  });

  it('pay: required fields, optional UUID v4 tournamentId, positive amount', () => {
    expect(payRequestSchema.safeParse(VALID_PAY).success).toBe(true);
    expect(payRequestSchema.safeParse({ ...VALID_PAY, tournamentId: TOURNAMENT }).success).toBe(true);
    expect(payRequestSchema.safeParse({ ...VALID_PAY, tournamentId: 'abc' }).success).toBe(false);
    expect(payRequestSchema.safeParse({ ...VALID_PAY, amount: 0 }).success).toBe(false);
    expect(payRequestSchema.safeParse({ ...VALID_PAY, amount: Infinity }).success).toBe(false);
    expect(payRequestSchema.safeParse({ ...VALID_PAY, amount: '5' }).success).toBe(false);
    const { depositId: _d, ...noDeposit } = VALID_PAY;
    expect(payRequestSchema.safeParse(noDeposit).success).toBe(false);
  });

  it('token and payment-error schemas', () => {
    expect(tokenRequestSchema.safeParse({ userId: 'u', displayName: 'Ann' }).success).toBe(true);
    expect(tokenRequestSchema.safeParse({ userId: 'u' }).success).toBe(false);
    expect(tokenResponseSchema.safeParse({ status: 200, data: { token: 'a.b.c' } }).success).toBe(true);
    expect(tokenResponseSchema.safeParse({ status: 200.5, data: { token: 'a.b.c' } }).success).toBe(false);
    expect(tokenResponseSchema.safeParse({ status: 200, data: {} }).success).toBe(false);
    expect(paymentErrorSchema.safeParse({ errors: [{ code: 'INSUFFICIENT_BALANCE', isClientSafe: true }] }).success).toBe(true);
    expect(paymentErrorSchema.safeParse({ errors: [{ code: 'X', isClientSafe: 'true' }] }).success).toBe(false);
  });
});
