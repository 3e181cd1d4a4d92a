// A new exchange and its completion as the values of the exchanges table's columns: what both engines
// bind (SQLite positionally, PostgreSQL as one array per column), so that both store the same row.
import type { Finding } from '../../../shared/model';
import type { ExchangeCompletion, NewExchange } from '../../capture/new-exchange';

/** The columns a new row sets, in the order their values are bound. */
export const INSERT_COLUMNS = [
  'direction',
  'kind',
  'origin',
  'at',
  'method',
  'path',
  'query',
  'target',
  'req_headers',
  'req_body',
  'req_size',
  'truncated',
  'remote_address',
  'verdict',
  'sig_notes',
  'diagnosis',
  'findings',
  'error_count',
  'deposit_id',
  'user_id',
  'result',
  'game_id',
  'amount',
  'currency',
  'tournament_id',
  'source_id',
  'tags',
  'scheme',
  'sig_secret',
  'profile',
] as const;
export type InsertColumn = (typeof INSERT_COLUMNS)[number];
/** The columns a completion sets, in the order their values are bound (then the id). */
export const COMPLETE_COLUMNS = ['res_status', 'res_headers', 'res_body', 'duration_ms', 'completed_at', 'error'] as const;
export type CompleteColumn = (typeof COMPLETE_COLUMNS)[number];

const blob = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

export function insertValues(x: NewExchange): Record<InsertColumn, unknown> {
  return {
    direction: x.direction,
    kind: x.kind,
    origin: x.origin,
    at: x.at,
    method: x.method,
    path: x.path,
    query: x.query,
    target: x.target,
    req_headers: JSON.stringify(x.headers),
    req_body: blob(x.body),
    req_size: x.size,
    truncated: x.truncated ? 1 : 0,
    remote_address: x.remoteAddress,
    verdict: x.signature?.verdict ?? null,
    sig_notes: x.signature ? JSON.stringify(x.signature.notes) : null,
    diagnosis: x.signature?.diagnosis ? JSON.stringify(x.signature.diagnosis) : null,
    findings: JSON.stringify(x.findings),
    error_count: errorCount(x.findings),
    deposit_id: x.keys.depositId,
    user_id: x.keys.userId,
    result: x.keys.result,
    game_id: x.keys.gameId,
    amount: x.keys.amount,
    currency: x.keys.currency,
    tournament_id: x.keys.tournamentId,
    source_id: x.sourceId,
    tags: x.tags && x.tags.length > 0 ? JSON.stringify(x.tags) : null,
    scheme: x.scheme ?? null,
    sig_secret: x.signature?.secret ?? null,
    profile: x.profile ?? null,
  };
}

export function completionValues(c: ExchangeCompletion): Record<CompleteColumn, unknown> {
  return {
    res_status: c.response?.status ?? null,
    res_headers: c.response ? JSON.stringify(c.response.headers) : null,
    res_body: c.response ? blob(c.response.body) : null,
    duration_ms: c.durationMs,
    completed_at: c.completedAt,
    error: c.error,
  };
}

/**
 * The values of INSERT_COLUMNS, in that order, as SQLite binds them. Written out: taking them by column
 * name (thirty different keys at one site of the code) cost about half a microsecond a capture more
 * (an in-process A/B; exchange-values.test.ts holds the order to the list).
 */
export function insertParams(v: Record<InsertColumn, unknown>): unknown[] {
  return [
    v.direction,
    v.kind,
    v.origin,
    v.at,
    v.method,
    v.path,
    v.query,
    v.target,
    v.req_headers,
    v.req_body,
    v.req_size,
    v.truncated,
    v.remote_address,
    v.verdict,
    v.sig_notes,
    v.diagnosis,
    v.findings,
    v.error_count,
    v.deposit_id,
    v.user_id,
    v.result,
    v.game_id,
    v.amount,
    v.currency,
    v.tournament_id,
    v.source_id,
    v.tags,
    v.scheme,
    v.sig_secret,
    v.profile,
  ];
}

/** The values of COMPLETE_COLUMNS, in that order, then the row's id: the UPDATE's parameters (written out, as insertParams). */
export function completionParams(v: Record<CompleteColumn, unknown>, id: number): unknown[] {
  return [v.res_status, v.res_headers, v.res_body, v.duration_ms, v.completed_at, v.error, id];
}

export function errorCount(findings: readonly Finding[]): number {
  let n = 0;
  for (const f of findings) if (f.level === 'error') n++;
  return n;
}
