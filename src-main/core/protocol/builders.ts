// Fresh, valid messages for the send, template and edge-case features. Every id the desk invents
// carries a "wd-" prefix so that an operator's logs show at a glance which entries came from the
// desk and not from the real service, and fits in 36 characters (the VARCHAR(36) of a UUID column,
// which is how operators commonly store depositId and roomId): "wd-" and 32 hex digits.
//
// Amount convention (the spec leaves payouts open): a follow-up carries the pay's amount, as the
// foundation issue asks: WIN, DRAW and REFUND carry the stake, LOSE carries no amount. Support edits
// the figure (--set amount=...) when a case needs another. The default stake is 5 USD.
import { randomUUID } from 'node:crypto';
import type { GameId, ResultValue } from '../../shared/model';
import { isPlainObject } from './finding-text';
import { inspect } from './inspect';
import type { MessageKind } from './inspect';
import type { PayRequest, ResultRequest } from './schemas';

export const DEFAULT_STAKE = 5;
export const DEFAULT_CURRENCY = 'USD';
export const DEFAULT_GAME: GameId = 'solitaire';

/** The longest id the desk invents: what a VARCHAR(36) column holds. */
export const MAX_DESK_ID_LENGTH = 36;

const DESK_ID = /^wd-[0-9a-f]{32}$/;

/** "wd-" and 32 hex digits (the 128 bits of a random UUID): 35 characters. */
export function freshDepositId(): string {
  return `wd-${randomUUID().replace(/-/g, '')}`;
}

export function freshRoomId(): string {
  return freshDepositId();
}

/** tournamentId must be a bare UUID v4, so it cannot carry the wd- prefix. */
export function freshTournamentId(): string {
  return randomUUID();
}

/** Whether an id was made by these builders. */
export function isDeskMadeId(id: string): boolean {
  return DESK_ID.test(id);
}

/** What a result credits for a given stake, per the convention above; null for LOSE. */
export function creditFor(result: ResultValue, stake: number): number | null {
  switch (result) {
    // The issue asks follow-ups to carry the pay's amount; the real payout is the platform's business,
    // and support edits it (--set amount=...) when a case needs another figure.
    case 'WIN':
    case 'DRAW':
    case 'REFUND':
      return stake;
    case 'LOSE':
      return null;
  }
}

export interface PayInput {
  userId: string;
  amount?: number;
  currency?: string;
  tournamentId?: string;
  depositId?: string;
}

export function buildPay(input: PayInput): PayRequest {
  const body: PayRequest = {
    userId: input.userId,
    depositId: input.depositId ?? freshDepositId(),
    currency: input.currency ?? DEFAULT_CURRENCY,
    amount: input.amount ?? DEFAULT_STAKE,
  };
  if (input.tournamentId !== undefined) body.tournamentId = input.tournamentId;
  return assertValid('pay', 'a pay request', body);
}

export interface ResultInput {
  userId: string;
  depositId?: string;
  /** The amount the message carries (what WIN/DRAW credit, what REFUND returns). Default: creditFor(result, 5). */
  amount?: number;
  currency?: string;
  /** Default: a fresh room. null only for REFUND. */
  roomId?: string | null;
  /** Default: 'solitaire'. null only for REFUND. */
  gameId?: GameId | null;
  /** Not allowed for REFUND (the spec does not list it there). */
  tournamentId?: string;
}

export function buildResult(result: ResultValue, input: ResultInput): ResultRequest {
  if (result === 'REFUND' && input.tournamentId !== undefined) {
    throw new Error('cannot build a REFUND result with a tournamentId: the spec does not list tournamentId for REFUND');
  }
  if (result === 'LOSE' && (input.amount !== undefined || input.currency !== undefined)) {
    throw new Error('cannot build a LOSE result with amount or currency: the spec does not list them for LOSE');
  }
  // Key order follows the spec's table, so built bodies read like the documentation.
  const body: Record<string, unknown> = {
    result,
    userId: input.userId,
    depositId: input.depositId ?? freshDepositId(),
    roomId: input.roomId === undefined ? freshRoomId() : input.roomId,
    gameId: input.gameId === undefined ? DEFAULT_GAME : input.gameId,
  };
  const credit = creditFor(result, DEFAULT_STAKE);
  if (credit !== null) {
    body.currency = input.currency ?? DEFAULT_CURRENCY;
    body.amount = input.amount ?? credit;
  }
  if (input.tournamentId !== undefined) body.tournamentId = input.tournamentId;
  return assertValid('results', `a ${result} result`, body) as ResultRequest;
}

/** Changes to the derived result; they win over what followUpOf takes from the pay. */
export type FollowUpOverrides = Partial<Omit<ResultInput, 'userId' | 'depositId'>>;

/**
 * The result that settles a captured pay: same userId, depositId and currency; the amount per
 * creditFor (WIN, DRAW and REFUND the paid amount, LOSE none); the pay's
 * tournamentId kept for WIN/DRAW/LOSE and dropped for REFUND. Throws when the pay lacks what is needed.
 */
export function followUpOf(payBody: Uint8Array | object, result: ResultValue, overrides: FollowUpOverrides = {}): ResultRequest {
  const pay = readPay(payBody);
  if (typeof pay.userId !== 'string') cannotDerive(result, 'it has no string userId');
  if (typeof pay.depositId !== 'string') cannotDerive(result, 'it has no string depositId');

  const input: ResultInput = { userId: pay.userId, depositId: pay.depositId };
  if (result !== 'LOSE') {
    const currency = overrides.currency ?? pay.currency;
    if (typeof currency !== 'string') cannotDerive(result, 'it has no string currency (pass one as an override)');
    const stake = pay.amount;
    const amount = overrides.amount ?? (typeof stake === 'number' ? creditFor(result, stake) : null);
    if (typeof amount !== 'number') cannotDerive(result, 'it has no numeric amount (pass one as an override)');
    input.currency = currency;
    input.amount = amount;
  }
  if (result !== 'REFUND' && typeof pay.tournamentId === 'string') input.tournamentId = pay.tournamentId;
  if (overrides.tournamentId !== undefined) input.tournamentId = overrides.tournamentId;
  if (overrides.roomId !== undefined) input.roomId = overrides.roomId;
  if (overrides.gameId !== undefined) input.gameId = overrides.gameId;
  return buildResult(result, input);
}

/** Compact JSON in UTF-8: the bytes the desk sends and signs. */
export function toBytes(obj: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(obj));
}

function cannotDerive(result: ResultValue, why: string): never {
  throw new Error(`cannot derive a ${result} result from this pay: ${why}`);
}

function readPay(payBody: Uint8Array | object): Record<string, unknown> {
  let value: unknown = payBody;
  if (payBody instanceof Uint8Array) {
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payBody));
    } catch (err) {
      throw new Error(`cannot derive a result: the pay body is not UTF-8 JSON (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  if (!isPlainObject(value)) throw new Error('cannot derive a result: the pay body is not a JSON object');
  return value;
}

/** Builders promise valid messages: refuse inputs that would make an error finding. */
function assertValid<T>(kind: MessageKind, what: string, body: T): T {
  const errors = inspect(kind, toBytes(body)).filter((f) => f.level === 'error');
  if (errors.length > 0) {
    throw new Error(`cannot build ${what}: ${errors.map((f) => f.message).join('; ')}`);
  }
  return body;
}
