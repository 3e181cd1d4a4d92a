// What the sandbox operator says. Refusals use the spec's error body (section 2.6); the success bodies
// are the sandbox's own choice, since the spec does not show one: a status word, the deposit and the
// balance after the call, so that a person reading a capture sees what the operator did.
import type { ResultValue } from '../../shared/model';

export interface SandboxAnswer {
  status: number;
  /** The exact body bytes, as UTF-8 JSON. */
  body: string;
  /** Extra response headers beyond content-type and content-length (e.g. Allow on a 405). */
  headers?: Array<[string, string]>;
}

export type SandboxErrorCode = 'INSUFFICIENT_BALANCE' | 'INVALID_REQUEST' | 'INVALID_SIGNATURE' | 'NOT_FOUND' | 'METHOD_NOT_ALLOWED';

/**
 * A balance too low is answered 402 Payment Required: the spec asks only for a 4XX, and 402 is the code
 * payment APIs use for a refused charge; it keeps "not enough money" apart from 400 (a malformed
 * request) and 401 (a bad signature) in a capture list.
 */
export const INSUFFICIENT_BALANCE_STATUS = 402;

export function errorAnswer(status: number, code: SandboxErrorCode, isClientSafe: boolean): SandboxAnswer {
  return { status, body: JSON.stringify({ errors: [{ code, isClientSafe }] }) };
}

export const invalidRequest = (): SandboxAnswer => errorAnswer(400, 'INVALID_REQUEST', false);
export const invalidSignature = (): SandboxAnswer => errorAnswer(401, 'INVALID_SIGNATURE', false);
export const insufficientBalance = (): SandboxAnswer => errorAnswer(INSUFFICIENT_BALANCE_STATUS, 'INSUFFICIENT_BALANCE', true);
export const notFound = (): SandboxAnswer => errorAnswer(404, 'NOT_FOUND', false);
export const methodNotAllowed = (): SandboxAnswer => ({ ...errorAnswer(405, 'METHOD_NOT_ALLOWED', false), headers: [['allow', 'POST']] });

/** 200 for an accepted pay: {"status":"ok","depositId":..,"userId":..,"balance":..}. */
export function payAccepted(depositId: string, userId: string, balance: number): SandboxAnswer {
  return { status: 200, body: JSON.stringify({ status: 'ok', depositId, userId, balance }) };
}

/** 200 for a processed result (credit, nothing for LOSE, refund): the balance after it. */
export function resultProcessed(depositId: string, result: ResultValue, userId: string, balance: number): SandboxAnswer {
  return { status: 200, body: JSON.stringify({ status: 'ok', depositId, result, userId, balance }) };
}

/** 200 for a result the sandbox does not act on (a REFUND of an unknown deposit, results for a deposit never paid). */
export function resultIgnored(depositId: string, result: ResultValue): SandboxAnswer {
  return { status: 200, body: JSON.stringify({ status: 'ignored', depositId, result }) };
}
