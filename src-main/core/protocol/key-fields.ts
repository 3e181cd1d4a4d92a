// The indexed columns of a captured callback. Runs on every captured request, so it does the least
// work possible: one strict decode, one JSON.parse, typeof checks; no zod, no findings.
import type { KeyFields } from '../../shared/model';

// Without stream:true a decoder keeps no state between calls, so one instance serves all.
const decoder = new TextDecoder('utf-8', { fatal: true });

/** No key fields: what a body that is not a callback (or not whole) has. */
export const NO_KEY_FIELDS: Readonly<KeyFields> = Object.freeze({
  depositId: null,
  userId: null,
  result: null,
  gameId: null,
  amount: null,
  currency: null,
  tournamentId: null,
});

/** Each field, or null where the body has none of the right type. Never throws. */
export function extractKeyFields(bytes: Uint8Array): KeyFields {
  let body: unknown;
  try {
    body = JSON.parse(decoder.decode(bytes));
  } catch {
    return { ...NO_KEY_FIELDS };
  }
  return keyFieldsOf(body);
}

/** The key fields of a body already parsed (inspectCapture parses once for findings and keys). */
export function keyFieldsOf(body: unknown): KeyFields {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ...NO_KEY_FIELDS };
  const o = body as Record<string, unknown>;
  return {
    depositId: stringOrNull(o.depositId),
    userId: stringOrNull(o.userId),
    result: stringOrNull(o.result),
    gameId: stringOrNull(o.gameId),
    // Infinity (from 1e400) would not survive JSON or SQLite as a number: treat it as absent.
    amount: typeof o.amount === 'number' && Number.isFinite(o.amount) ? o.amount : null,
    currency: stringOrNull(o.currency),
    tournamentId: stringOrNull(o.tournamentId),
  };
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
