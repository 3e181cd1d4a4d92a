// Mapping between rows of the exchanges table and the model's types. Lists read only the summary
// columns; the blobs and JSON columns are read for one exchange at a time.
import type { Diagnosis, ExchangeDetail, ExchangeKind, ExchangeOrigin, ExchangeSummary, Finding, HeaderList, Verdict, Direction } from '../../../shared/model';
import { FAULT_NOTE_MARK, faultNoteOf, whoAnswered } from '../../../shared/answered-by';

export const SUMMARY_COLUMNS =
  'id, direction, kind, origin, at, method, path, target, verdict, res_status, error, duration_ms, source_id, truncated, ' +
  'error_count, deposit_id, user_id, result, game_id, amount, currency, tournament_id, profile';

/**
 * The findings of a row that may hold the note of a fault the proxy applied (who answered depends on
 * it), else NULL: lists parse findings only for those few rows. A plain string test on the JSON text.
 */
export const FAULT_FINDINGS_SQL = `CASE WHEN instr(findings, '${FAULT_NOTE_MARK}') > 0 THEN findings END AS fault_findings`;

/** What a list selects of each row: the summary columns and the findings a fault note may be in. */
export const SUMMARY_SELECT = `${SUMMARY_COLUMNS}, ${FAULT_FINDINGS_SQL}`;

/** The findings JSON as fault_findings holds it: the text when it may hold a fault note, else null. */
export function faultFindingsOf(findingsJson: string | null): string | null {
  return findingsJson !== null && findingsJson.includes(FAULT_NOTE_MARK) ? findingsJson : null;
}

export interface SummaryRow {
  id: number;
  direction: Direction;
  kind: ExchangeKind;
  origin: ExchangeOrigin;
  at: string;
  method: string;
  path: string;
  target: string | null;
  verdict: Verdict | null;
  res_status: number | null;
  error: string | null;
  duration_ms: number | null;
  source_id: number | null;
  truncated: number;
  error_count: number;
  deposit_id: string | null;
  user_id: string | null;
  result: string | null;
  game_id: string | null;
  amount: number | null;
  currency: string | null;
  tournament_id: string | null;
  /** FAULT_FINDINGS_SQL: absent where a query selects the whole findings column instead. */
  fault_findings?: string | null;
  profile: string | null;
}

export interface DetailRow extends SummaryRow {
  query: string;
  req_headers: string;
  req_body: Buffer;
  req_size: number;
  remote_address: string | null;
  sig_notes: string | null;
  diagnosis: string | null;
  findings: string | null;
  res_headers: string | null;
  res_body: Buffer | null;
  completed_at: string | null;
  tags: string | null;
  scheme: 'http' | 'https' | null;
  sig_secret: 'current' | 'previous' | null;
  reverified_at: string | null;
  reverified_with: string | null;
  original_verdict: Verdict | null;
}

export function toSummary(r: SummaryRow, findingsJson: string | null = r.fault_findings ?? null): ExchangeSummary {
  const response = r.res_status === null ? null : { status: r.res_status };
  const faultNote = findingsJson === null ? null : faultNoteOf(parseJson<Finding[]>(faultFindingsOf(findingsJson), []));
  const who = whoAnswered({ direction: r.direction, response, error: r.error, truncated: r.truncated === 1, faultNote });
  return {
    id: r.id,
    direction: r.direction,
    kind: r.kind,
    origin: r.origin,
    at: r.at,
    method: r.method,
    path: r.path,
    target: r.target,
    signature: { verdict: r.verdict },
    response,
    error: r.error,
    answeredBy: who.answeredBy,
    deskCause: who.deskCause,
    durationMs: r.duration_ms,
    sourceId: r.source_id,
    truncated: r.truncated === 1,
    errorCount: r.error_count,
    depositId: r.deposit_id,
    userId: r.user_id,
    result: r.result,
    gameId: r.game_id,
    amount: r.amount,
    currency: r.currency,
    tournamentId: r.tournament_id,
    profile: r.profile ?? null,
  };
}

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/**
 * The rows of a slice of exchanges, as both engines read many at once (an export's slice): the exchanges'
 * own, and the ids derived from each (replays, follow-ups), oldest first. Plain data: it crosses to the
 * export thread as it is, and toDetails makes details of it there.
 */
export interface DetailRows {
  rows: DetailRow[];
  derived: Array<{ source_id: number; id: number }>;
}

/** The details of `ids` that `found` holds, in the order of `ids` (an id named twice, twice). */
export function toDetails(ids: readonly number[], { rows, derived }: DetailRows): ExchangeDetail[] {
  const derivedOf = new Map<number, number[]>();
  for (const d of derived) {
    const list = derivedOf.get(d.source_id);
    if (list) list.push(d.id);
    else derivedOf.set(d.source_id, [d.id]);
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toDetail(row, derivedOf.get(id) ?? [])] : [];
  });
}

export function toDetail(r: DetailRow, derivedIds: number[]): ExchangeDetail {
  const { signature: _sig, response: _res, ...summary } = toSummary(r, r.findings);
  return {
    ...summary,
    request: {
      method: r.method,
      path: r.path,
      query: r.query,
      headers: parseJson<HeaderList>(r.req_headers, []),
      bodyBase64: r.req_body.toString('base64'),
      size: r.req_size,
      truncated: r.truncated === 1,
    },
    response:
      r.res_status === null
        ? null
        : { status: r.res_status, headers: parseJson<HeaderList>(r.res_headers, []), bodyBase64: (r.res_body ?? Buffer.alloc(0)).toString('base64') },
    signature: {
      verdict: r.verdict,
      notes: parseJson<string[]>(r.sig_notes, []),
      diagnosis: parseJson<Diagnosis | null>(r.diagnosis, null),
      ...(r.sig_secret ? { secret: r.sig_secret } : {}),
    },
    findings: parseJson<Finding[]>(r.findings, []),
    remoteAddress: r.remote_address,
    scheme: r.scheme ?? null,
    completedAt: r.completed_at,
    tags: parseJson<string[]>(r.tags, []),
    derivedIds,
    reverified:
      r.reverified_at === null
        ? null
        : { at: r.reverified_at, ...parseJson(r.reverified_with, { profile: '?', fingerprint: null }), originalVerdict: r.original_verdict },
  };
}

/** A stored request as it was received (raw bytes and headers), with its kind and whether its body was cut. */
export interface StoredRequest {
  kind: ExchangeKind;
  method: string;
  path: string;
  query: string;
  headers: HeaderList;
  body: Buffer;
  truncated: boolean;
}

/** The columns a stored request is read from (a replay or a draft needs no more). */
export const REQUEST_COLUMNS = 'kind, method, path, query, req_headers, req_body, truncated';

export function toStoredRequest(r: Pick<DetailRow, 'kind' | 'method' | 'path' | 'query' | 'req_headers' | 'req_body' | 'truncated'>): StoredRequest {
  return {
    kind: r.kind,
    method: r.method,
    path: r.path,
    query: r.query,
    headers: JSON.parse(r.req_headers) as HeaderList,
    body: r.req_body,
    truncated: r.truncated === 1,
  };
}
