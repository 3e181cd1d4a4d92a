// zod schemas for every message of the interface (spec section 2), built from the field rules so
// that the schemas and the findings of inspect() agree. Objects use zod's default mode, which
// strips unknown keys instead of refusing them: the spec expects operators to ignore extra fields,
// and inspect() reports them as info only.
import { z } from 'zod';
import { amountSchema, gameIdSchema, textSchema, tournamentIdSchema } from './field-rules';
import type { ResultValue } from '../../shared/model';

/** 2.1: sent by the service to POST /platform/pay. */
export const payRequestSchema = z.object({
  userId: textSchema,
  depositId: textSchema,
  currency: textSchema,
  amount: amountSchema,
  tournamentId: tournamentIdSchema.optional(),
});

/** 2.2, WIN and DRAW: the amount is what the operator credits. */
export const winOrDrawResultSchema = z.object({
  result: z.enum(['WIN', 'DRAW']),
  userId: textSchema,
  depositId: textSchema,
  roomId: textSchema,
  gameId: gameIdSchema,
  currency: textSchema,
  amount: amountSchema,
  tournamentId: tournamentIdSchema.optional(),
});

/** 2.2, LOSE: no currency or amount (the operator does nothing). */
export const loseResultSchema = z.object({
  result: z.literal('LOSE'),
  userId: textSchema,
  depositId: textSchema,
  roomId: textSchema,
  gameId: gameIdSchema,
  tournamentId: tournamentIdSchema.optional(),
});

/** 2.2, REFUND: roomId and gameId must be present but may be null (no match took place); no tournamentId. */
export const refundResultSchema = z.object({
  result: z.literal('REFUND'),
  userId: textSchema,
  depositId: textSchema,
  roomId: textSchema.nullable(),
  gameId: gameIdSchema.nullable(),
  currency: textSchema,
  amount: amountSchema,
});

/** 2.2: sent by the service to POST /platform/results; the shape depends on `result`. */
export const resultRequestSchema = z.discriminatedUnion('result', [winOrDrawResultSchema, loseResultSchema, refundResultSchema]);

/** The schema that applies to one result value. */
export const RESULT_SCHEMAS: Record<ResultValue, z.ZodType> = {
  WIN: winOrDrawResultSchema,
  DRAW: winOrDrawResultSchema,
  LOSE: loseResultSchema,
  REFUND: refundResultSchema,
};

/** 2.4: sent by the operator's server to the service's create-token endpoint. */
export const tokenRequestSchema = z.object({
  userId: textSchema,
  displayName: textSchema,
});

/** 2.5: the service's answer to a token request. */
export const tokenResponseSchema = z.object({
  status: z.number().int(),
  data: z.object({ token: textSchema }),
});

/** 2.6: the operator's answer (status 4XX) to a pay it refuses. */
export const paymentErrorSchema = z.object({
  errors: z.array(
    z.object({
      code: textSchema,
      isClientSafe: z.boolean(),
    }),
  ),
});

export type PayRequest = z.infer<typeof payRequestSchema>;
export type WinOrDrawResult = z.infer<typeof winOrDrawResultSchema>;
export type LoseResult = z.infer<typeof loseResultSchema>;
export type RefundResult = z.infer<typeof refundResultSchema>;
export type ResultRequest = z.infer<typeof resultRequestSchema>;
export type TokenRequestBody = z.infer<typeof tokenRequestSchema>;
export type TokenResponseBody = z.infer<typeof tokenResponseSchema>;
export type PaymentErrorBody = z.infer<typeof paymentErrorSchema>;
