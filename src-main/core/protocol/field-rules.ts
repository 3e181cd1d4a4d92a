// The single source of truth for each field of the interface: its zod schema, the words a support
// person reads when it is wrong, and, per message, whether the field is required, optional, may be
// null or is not listed. schemas.ts builds the message schemas from these, and check-fields.ts
// builds the findings from them, so the two can never disagree about what a field must be.
import { z } from 'zod';
import { GAME_IDS, RESULT_VALUES } from '../../shared/model';
import type { ResultValue } from '../../shared/model';

/** UUID version 4 (RFC 9562). Hex digits are matched case-insensitively, as the RFC asks of readers. */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const resultSchema = z.enum(RESULT_VALUES);
export const gameIdSchema = z.enum(GAME_IDS);
export const textSchema = z.string();
// zod 4's number() already refuses Infinity and NaN; positive() refuses 0 and below.
export const amountSchema = z.number().positive();
export const tournamentIdSchema = z.string().regex(UUID_V4);

export interface FieldRule {
  schema: z.ZodType;
  /** Completes "<field> must be ...". */
  expect: string;
  /** An identifier-like string: warn when empty or padded with spaces, since operators compare it exactly. */
  exactText?: boolean;
  /** An extra hint for a wrong value, e.g. a case mistake in an enum. */
  hint?: (value: unknown) => string | undefined;
}

/** Hint for enum values written in the wrong case ("win" for "WIN"): values are compared exactly. */
function caseHint(allowed: readonly string[]): (value: unknown) => string | undefined {
  return (value) => {
    if (typeof value !== 'string') return undefined;
    const match = allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());
    return match !== undefined && match !== value ? `values are exact and case-sensitive: did you mean "${match}"?` : undefined;
  };
}

const booleanHint = (value: unknown): string | undefined =>
  value === 'true' || value === 'false' ? `use the JSON boolean ${value} without quotes, not the string "${value}"` : undefined;

const numberHint = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? 'write the number without quotes' : undefined;

export const FIELD_RULES = {
  result: { schema: resultSchema, expect: `one of ${RESULT_VALUES.join(', ')}`, hint: caseHint(RESULT_VALUES) },
  userId: { schema: textSchema, expect: 'a string', exactText: true },
  depositId: { schema: textSchema, expect: 'a string', exactText: true },
  roomId: { schema: textSchema, expect: 'a string', exactText: true },
  gameId: { schema: gameIdSchema, expect: `one of ${GAME_IDS.join(', ')}`, hint: caseHint(GAME_IDS) },
  currency: { schema: textSchema, expect: 'a string', exactText: true },
  amount: { schema: amountSchema, expect: 'a finite number greater than 0', hint: numberHint },
  tournamentId: {
    schema: tournamentIdSchema,
    expect: 'a UUID v4 string (like "3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b")',
  },
  displayName: { schema: textSchema, expect: 'a string' },
  status: { schema: z.number().int(), expect: 'an integer', hint: numberHint },
  token: { schema: textSchema, expect: 'a string' },
  code: { schema: textSchema, expect: 'a string' },
  isClientSafe: { schema: z.boolean(), expect: 'a boolean (true or false)', hint: booleanHint },
} satisfies Record<string, FieldRule>;

export type FieldName = keyof typeof FIELD_RULES;

/**
 * required: must be present, not null. nullable: must be present, may be null.
 * optional: may be left out, never null. absent: the spec does not list it for this message;
 * tolerated (info) because operators are expected to ignore what they do not use.
 */
export type Presence = 'required' | 'nullable' | 'optional' | 'absent';

export type FieldTable = Partial<Record<FieldName, Presence>>;

export const PAY_FIELDS: FieldTable = {
  userId: 'required',
  depositId: 'required',
  currency: 'required',
  amount: 'required',
  tournamentId: 'optional',
};

const WIN_OR_DRAW: FieldTable = {
  result: 'required',
  userId: 'required',
  depositId: 'required',
  roomId: 'required',
  gameId: 'required',
  currency: 'required',
  amount: 'required',
  tournamentId: 'optional',
};

/** Section 2.2 of the spec, one row per result value. "not listed" there is 'absent' here. */
export const RESULT_FIELD_TABLE: Record<ResultValue, FieldTable> = {
  WIN: WIN_OR_DRAW,
  DRAW: WIN_OR_DRAW,
  LOSE: {
    result: 'required',
    userId: 'required',
    depositId: 'required',
    roomId: 'required',
    gameId: 'required',
    currency: 'absent',
    amount: 'absent',
    tournamentId: 'optional',
  },
  REFUND: {
    result: 'required',
    userId: 'required',
    depositId: 'required',
    roomId: 'nullable',
    gameId: 'nullable',
    currency: 'required',
    amount: 'required',
    tournamentId: 'absent',
  },
};

export const TOKEN_REQUEST_FIELDS: FieldTable = { userId: 'required', displayName: 'required' };
export const TOKEN_RESPONSE_FIELDS: FieldTable = { status: 'required' }; // data is checked by hand: it nests
export const TOKEN_DATA_FIELDS: FieldTable = { token: 'required' };
export const PAYMENT_ERROR_ENTRY_FIELDS: FieldTable = { code: 'required', isClientSafe: 'required' };

export function isResultValue(value: unknown): value is ResultValue {
  return typeof value === 'string' && (RESULT_VALUES as readonly string[]).includes(value);
}
