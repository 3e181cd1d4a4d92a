// Synthetic capture log for the store benchmark: the shape of real traffic (bodies laid out as the
// protocol builders lay them out, the first ones checked by the real inspector, every one signed with
// the real signer), written through the real ExchangeStore. The builders themselves validate with zod
// on every call, too slow for a million rows.
//
// Per deposit: a pay, then (usually) its results a little later, interleaved with other deposits.
// 10,000 users; verdicts mostly valid, a few mismatches and missing signatures; about 1 in 200
// deposits replayed by support (an outbound row linked by source_id), 1 in 100 pays sent twice.
import type { ExchangeCompletion, NewExchange } from '../../src-main/core/store/sqlite';
import { inspect } from '../../src-main/core/protocol';
import { sign } from '../../src-main/core/signing';
import type { ResultValue, Verdict } from '../../src-main/shared/model';
import type { NewRow } from '../../src-main/core/store/postgres/row-buffer';
import { completionValues, insertValues } from '../../src-main/core/store/rows/exchange-values';
import { rng, uuidFrom } from './rng';

export const BENCH_SECRET = 'bench-signing-secret-0123456789abcdef';
export const USERS = 10_000;

export function userIdOf(n: number): string {
  return `user-${n}`;
}

export interface GeneratedRow {
  row: NewExchange;
  completion: ExchangeCompletion;
  /** Index (in generation order) of the row this one replays. */
  sourceIndex: number | null;
}

const OK_BODY = Buffer.from('{"status":"ok"}');
const RESULTS: ResultValue[] = ['WIN', 'LOSE', 'DRAW', 'REFUND'];

function verdictFor(x: number): Verdict {
  if (x < 0.97) return 'valid';
  if (x < 0.99) return 'mismatch';
  return 'missing';
}

/**
 * Yields `count` rows in capture order. Deterministic for a given seed. The deposit ids it used are
 * collected in `deposits` (for picking query arguments that exist).
 */
export function* generateRows(count: number, seed: number, deposits: string[]): Generator<GeneratedRow> {
  const next = rng(seed);
  const t0 = Date.parse('2025-01-01T00:00:00.000Z');
  // Deposits paid but not yet settled: the results of one come a few rows after its pay.
  const open: Array<{ depositId: string; userId: string; payIndex: number }> = [];
  for (let i = 0; i < count; i++) {
    const at = new Date(t0 + i * 250).toISOString();
    const settle = open.length > 0 && (open.length > 20 || next() < 0.45);
    let body: Uint8Array;
    let kind: 'pay' | 'results';
    let sourceIndex: number | null = null;
    let direction: 'inbound' | 'outbound' = 'inbound';
    let depositId: string;
    let userId: string;
    if (settle) {
      const pick = open.splice(Math.floor(next() * open.length), 1)[0]!;
      depositId = pick.depositId;
      userId = pick.userId;
      const result = RESULTS[Math.floor(next() * RESULTS.length)]!;
      body = resultBody(result, userId, depositId, next);
      kind = 'results';
      // A support agent replays a settled deposit now and then.
      if (next() < 0.005) ((sourceIndex = pick.payIndex), (direction = 'outbound'));
    } else {
      depositId = uuidFrom(next);
      userId = userIdOf(Math.floor(next() * USERS));
      body = encode({ userId, depositId, currency: 'USD', amount: 1 + Math.floor(next() * 50) });
      kind = 'pay';
      deposits.push(depositId);
      open.push({ depositId, userId, payIndex: i });
      if (next() < 0.01) open.push({ depositId, userId, payIndex: i }); // settled twice: a duplicate
    }
    if (i < 100) assertValid(kind, body);
    const signature = sign(body, BENCH_SECRET);
    const parsed = JSON.parse(Buffer.from(body).toString('utf8')) as Record<string, unknown>;
    const verdict = direction === 'outbound' ? null : verdictFor(next());
    yield {
      sourceIndex,
      row: {
        direction,
        kind,
        origin: direction === 'outbound' ? 'replay' : 'proxy',
        at,
        method: 'POST',
        path: kind === 'pay' ? '/platform/pay' : '/platform/results',
        query: '',
        target: direction === 'outbound' ? 'http://127.0.0.1:9000/platform/pay' : null,
        headers: [
          ['Host', '127.0.0.1:8787'],
          ['Content-Type', 'application/json'],
          ['Content-Length', String(body.length)],
          ['x-server-authorization', verdict === 'missing' ? '' : signature],
          ['User-Agent', 'platform-callbacks/1.0'],
        ],
        body,
        size: body.length,
        truncated: false,
        remoteAddress: '127.0.0.1',
        signature: verdict === null ? null : { verdict, notes: verdict === 'valid' ? [] : ['The signature does not match.'], diagnosis: null },
        findings: [],
        keys: {
          depositId,
          userId,
          result: typeof parsed.result === 'string' ? parsed.result : null,
          gameId: typeof parsed.gameId === 'string' ? parsed.gameId : null,
          amount: typeof parsed.amount === 'number' ? parsed.amount : null,
          currency: typeof parsed.currency === 'string' ? parsed.currency : null,
          tournamentId: null,
        },
        sourceId: null,
      },
      completion: {
        response: {
          status: 200,
          headers: [
            ['Content-Type', 'application/json'],
            ['Content-Length', String(OK_BODY.length)],
          ],
          body: OK_BODY,
        },
        error: null,
        durationMs: 1 + next() * 5,
        completedAt: at,
      },
    };
  }
}

function encode(obj: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(obj), 'utf8');
}

function resultBody(result: ResultValue, userId: string, depositId: string, next: () => number): Uint8Array {
  const roomId = `wd-room-${Math.floor(next() * 2 ** 48)
    .toString(16)
    .padStart(12, '0')}`;
  const body: Record<string, unknown> = { result, userId, depositId, roomId, gameId: 'solitaire' };
  if (result === 'REFUND') ((body.roomId = null), (body.gameId = null));
  if (result !== 'LOSE') ((body.currency = 'USD'), (body.amount = 5));
  return encode(body);
}

function assertValid(kind: 'pay' | 'results', body: Uint8Array): void {
  const errors = inspect(kind, body).filter((f) => f.level === 'error');
  if (errors.length > 0) throw new Error(`generated ${kind} body is not valid: ${errors.map((f) => f.message).join('; ')}`);
}

/**
 * A generated row as the writer's new row, request and answer, for a log whose ids are 1, 2, ... in
 * generation order (a replay names its source by index).
 */
export function newRowOf(g: GeneratedRow): NewRow {
  return { values: insertValues({ ...g.row, sourceId: g.sourceIndex === null ? null : g.sourceIndex + 1 }), finish: completionValues(g.completion) };
}
