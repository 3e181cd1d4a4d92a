import type {
  ExchangeDetail,
  ExchangeKind,
  ExchangeOrigin,
  ExchangePage,
  ExchangeQuery,
  ExchangeSummary,
  Finding,
  HeaderList,
  KeyFields,
  SignatureReport,
  Direction,
  Timeline,
} from '../../shared/model';
import type { Db } from './open';
import { SUMMARY_COLUMNS, toDetail, toSummary, type DetailRow, type SummaryRow } from './exchange-rows';
import { timelineFlags } from './timeline-flags';

export interface NewExchange {
  direction: Direction;
  kind: ExchangeKind;
  origin: ExchangeOrigin;
  at: string;
  method: string;
  path: string;
  query: string;
  target: string | null;
  headers: HeaderList;
  body: Uint8Array;
  /** Bytes received; larger than body.length when truncated. */
  size: number;
  truncated: boolean;
  remoteAddress: string | null;
  signature: SignatureReport | null;
  findings: Finding[];
  keys: KeyFields;
  sourceId: number | null;
  tags?: string[];
}

export interface ExchangeCompletion {
  response: { status: number; headers: HeaderList; body: Uint8Array } | null;
  error: string | null;
  durationMs: number;
  completedAt: string;
}

/** The columns a new row sets, in the order their values are bound. */
const INSERT_COLUMNS = [
  'direction', 'kind', 'origin', 'at', 'method', 'path', 'query', 'target', 'req_headers', 'req_body', 'req_size', 'truncated',
  'remote_address', 'verdict', 'sig_notes', 'diagnosis', 'findings', 'error_count', 'deposit_id', 'user_id', 'result', 'game_id',
  'amount', 'currency', 'tournament_id', 'source_id', 'tags',
] as const;
type InsertColumn = (typeof INSERT_COLUMNS)[number];
/** The columns a completion sets, in the order their values are bound (then the id). */
const COMPLETE_COLUMNS = ['res_status', 'res_headers', 'res_body', 'duration_ms', 'completed_at', 'error'] as const;
type CompleteColumn = (typeof COMPLETE_COLUMNS)[number];

const MAX_LIMIT = 1000;
/** Summaries kept for rows inserted here and not completed yet (exchanges in flight), at most. */
const OPEN_SUMMARIES = 4096;
/** Ids a broad search reads first, newest first (see walkBroadSearch). */
const SEARCH_WINDOW = 20_000;


/** The exchange log: every request the desk saw or made, with its response. */
export class ExchangeStore {
  private readonly insertStmt;
  private readonly completeStmt;
  private readonly summaryStmt;
  private readonly detailStmt;
  private readonly derivedStmt;
  private readonly countSinceStmt;
  private readonly maxIdStmt;
  private readonly searchCountStmt;
  private readonly timelineStmt;
  private readonly listCache = new Map<string, ReturnType<Db['prepare']>>();
  /** Rows counted so far, up to maxId: counts() adds only the rows written since (deletes call recount()). */
  private counted: { maxId: number; inbound: number; outbound: number } | null = null;
  private countedVersion = -1;
  /**
   * The summaries of rows inserted and not yet completed, so that complete() announces the finished row
   * without reading it back (bench/proxy.ts: that read was 4.5% of a forwarding proxy's CPU). Bounded;
   * kept in step by every change to an open row (addFindings patches it; summary() refreshes it).
   */
  private readonly open = new Map<number, ExchangeSummary>();
  private readonly dataVersionStmt;
  private readonly findingsStmt;
  private readonly setFindingsStmt;

  constructor(
    private readonly db: Db,
    private readonly onChange: (summary: ExchangeSummary) => void = () => {},
  ) {
    // Positional parameters: better-sqlite3 looks each named one up in the object it is given, and with
    // 27 of them that made a capture's write path about 2 µs (7%) dearer (an A/B of this store in-process).
    this.insertStmt = db.prepare(`INSERT INTO exchanges (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`);
    this.completeStmt = db.prepare(`UPDATE exchanges SET ${COMPLETE_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`);
    this.summaryStmt = db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM exchanges WHERE id = ?`);
    this.detailStmt = db.prepare(`SELECT * FROM exchanges WHERE id = ?`);
    this.derivedStmt = db.prepare(`SELECT id FROM exchanges WHERE source_id = ? ORDER BY id`).pluck();
    this.countSinceStmt = db.prepare(`SELECT direction, count(*) AS n FROM exchanges WHERE id > ? GROUP BY direction`);
    this.maxIdStmt = db.prepare('SELECT max(id) FROM exchanges').pluck();
    // Changes when another connection (another process) commits: then the running counts may be off.
    this.dataVersionStmt = db.prepare('PRAGMA data_version').pluck();
    this.findingsStmt = db.prepare('SELECT findings FROM exchanges WHERE id = ?').pluck();
    this.setFindingsStmt = db.prepare('UPDATE exchanges SET findings = ?, error_count = ? WHERE id = ?');
    // Capped: reads at most `cap` entries of each index, whatever the prefix.
    this.searchCountStmt = db
      .prepare(
        `SELECT (SELECT count(*) FROM (SELECT 1 FROM exchanges WHERE deposit_id >= @s AND deposit_id < @sEnd LIMIT @cap))
              + (SELECT count(*) FROM (SELECT 1 FROM exchanges WHERE user_id >= @s AND user_id < @sEnd LIMIT @cap))`,
      )
      .pluck();
    this.timelineStmt = db.prepare(
      `SELECT ${SUMMARY_COLUMNS} FROM exchanges WHERE deposit_id = @d
       UNION SELECT ${SUMMARY_COLUMNS} FROM exchanges WHERE deposit_id IS NULL AND source_id IN (SELECT id FROM exchanges WHERE deposit_id = @d)
       ORDER BY id`,
    );
  }

  /**
   * Writes the request (and its verdict and findings) and returns its summary. Synchronous: durable on
   * return, or when the enclosing transaction commits (the proxy's group commit, a HAR import).
   */
  insert(x: NewExchange): ExchangeSummary {
    const errors = errorCount(x.findings);
    const row: Record<InsertColumn, unknown> = {
      direction: x.direction,
      kind: x.kind,
      origin: x.origin,
      at: x.at,
      method: x.method,
      path: x.path,
      query: x.query,
      target: x.target,
      req_headers: JSON.stringify(x.headers),
      req_body: Buffer.from(x.body.buffer, x.body.byteOffset, x.body.byteLength),
      req_size: x.size,
      truncated: x.truncated ? 1 : 0,
      remote_address: x.remoteAddress,
      verdict: x.signature?.verdict ?? null,
      sig_notes: x.signature ? JSON.stringify(x.signature.notes) : null,
      diagnosis: x.signature?.diagnosis ? JSON.stringify(x.signature.diagnosis) : null,
      findings: JSON.stringify(x.findings),
      error_count: errors,
      deposit_id: x.keys.depositId,
      user_id: x.keys.userId,
      result: x.keys.result,
      game_id: x.keys.gameId,
      amount: x.keys.amount,
      currency: x.keys.currency,
      tournament_id: x.keys.tournamentId,
      source_id: x.sourceId,
      tags: x.tags && x.tags.length > 0 ? JSON.stringify(x.tags) : null,
    };
    const info = this.insertStmt.run(INSERT_COLUMNS.map((column) => row[column]));
    // Built from what was bound rather than read back (a SELECT a capture; bench/store.ts measured it,
    // and RETURNING, which is slower still): exactly what list() will read for this row. A string with a
    // lone surrogate (JSON may carry "\ud800") is stored altered: that rare row is read back instead.
    const id = Number(info.lastInsertRowid);
    const summary = storedSummary(id, x, errors) ?? this.summary(id)!;
    this.open.set(id, summary);
    if (this.open.size > OPEN_SUMMARIES) this.open.delete(this.open.keys().next().value!);
    this.onChange(summary);
    return summary;
  }

  /** Records the response, or the error that stood in its place. */
  complete(id: number, c: ExchangeCompletion): ExchangeSummary {
    const before = this.open.get(id);
    this.open.delete(id);
    const values: Record<CompleteColumn, unknown> = {
      res_status: c.response?.status ?? null,
      res_headers: c.response ? JSON.stringify(c.response.headers) : null,
      res_body: c.response ? Buffer.from(c.response.body.buffer, c.response.body.byteOffset, c.response.body.byteLength) : null,
      duration_ms: c.durationMs,
      completed_at: c.completedAt,
      error: c.error,
    };
    const info = this.completeStmt.run([...COMPLETE_COLUMNS.map((column) => values[column]), id]);
    if (info.changes === 0) throw new Error(`Exchange ${id} does not exist.`);
    const summary =
      before && intact(c.error)
        ? {
            ...before,
            response: c.response ? { status: c.response.status } : null,
            error: c.error,
            // SQLite stores NaN as NULL.
            durationMs: Number.isNaN(c.durationMs) ? null : c.durationMs,
          }
        : this.summary(id)!;
    this.onChange(summary);
    return summary;
  }

  /**
   * Appends findings made after the row was written (a forwarded answer stored cut, a token endpoint's
   * answer) and announces the updated row. An empty list changes nothing and reads nothing.
   */
  addFindings(id: number, findings: readonly Finding[]): void {
    if (findings.length === 0) return;
    const current = this.findingsStmt.get(id) as string | null | undefined;
    if (current === undefined) throw new Error(`Exchange ${id} does not exist.`);
    let merged: Finding[] = [];
    try {
      merged = current === null ? [] : (JSON.parse(current) as Finding[]);
    } catch {
      merged = [];
    }
    merged.push(...findings);
    const errors = errorCount(merged);
    this.setFindingsStmt.run(JSON.stringify(merged), errors, id);
    // Only the findings changed: a row in flight is patched rather than read back.
    const before = this.open.get(id);
    const summary = before ? { ...before, errorCount: errors } : this.summary(id)!;
    if (before) this.open.set(id, summary);
    this.onChange(summary);
  }

  summary(id: number): ExchangeSummary | null {
    const row = this.summaryStmt.get(id) as SummaryRow | undefined;
    const summary = row ? toSummary(row) : null;
    if (summary && this.open.has(id)) this.open.set(id, summary);
    return summary;
  }

  get(id: number): ExchangeDetail | null {
    const row = this.detailStmt.get(id) as DetailRow | undefined;
    if (!row) return null;
    return toDetail(row, this.derivedStmt.all(id) as number[]);
  }

  /** Raw request bytes and headers of one exchange (with its kind, and whether the body was cut), without decoding the rest. */
  requestOf(id: number): { kind: ExchangeKind; method: string; path: string; query: string; headers: HeaderList; body: Buffer; truncated: boolean } | null {
    const row = this.detailStmt.get(id) as DetailRow | undefined;
    if (!row) return null;
    return {
      kind: row.kind,
      method: row.method,
      path: row.path,
      query: row.query,
      headers: JSON.parse(row.req_headers) as HeaderList,
      body: row.req_body,
      truncated: row.truncated === 1,
    };
  }

  list(q: ExchangeQuery = {}): ExchangePage {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    const direction = q.direction ?? 'inbound';
    if (direction !== 'all') (where.push('direction = @direction'), (params.direction = direction));
    if (q.kind) (where.push('kind = @kind'), (params.kind = q.kind));
    if (q.result) (where.push('result = @result'), (params.result = q.result));
    if (q.verdict) (where.push('verdict = @verdict'), (params.verdict = q.verdict));
    if (q.depositId) (where.push('deposit_id = @deposit'), (params.deposit = q.depositId));
    if (q.userId) (where.push('user_id = @user'), (params.user = q.userId));
    if (q.beforeId !== undefined) (where.push('id < @before'), (params.before = q.beforeId));
    const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(q.limit ?? 100)));
    params.limit = limit + 1;
    if (q.search) {
      params.s = q.search;
      params.sEnd = `${q.search}\u{10FFFF}`;
      const walked = this.walkBroadSearch(where, params, limit);
      if (walked) return walked;
      // A prefix range on each indexed column: both halves are index range scans.
      where.push(
        `id IN (SELECT id FROM exchanges WHERE deposit_id >= @s AND deposit_id < @sEnd UNION SELECT id FROM exchanges WHERE user_id >= @s AND user_id < @sEnd)`,
      );
    }
    return this.page(where, params, limit);
  }

  private page(where: readonly string[], params: Record<string, unknown>, limit: number): ExchangePage {
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM exchanges ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`;
    let stmt = this.listCache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.listCache.set(sql, stmt);
    }
    const rows = stmt.all(params) as SummaryRow[];
    const items = rows.slice(0, limit).map(toSummary);
    return { items, nextBeforeId: rows.length > limit ? items[items.length - 1]!.id : null };
  }

  /**
   * A search prefix is a range on two indexes: cheap when it matches few rows, but a broad prefix ("u",
   * "user-") matches most of the log, and collecting every match to sort them took a second on a million
   * rows (bench/store.ts), while the newest page of matches lies among the newest rows. So:
   * 1. count the matches, capped at about sqrt(page x rows) (there both ways cost alike); fewer: indexes;
   * 2. read the newest SEARCH_WINDOW ids newest first (the `+` keeps the planner off the prefix indexes,
   *    so it walks along whichever index the other filters pick); a full page there is the answer;
   * 3. else the window's share of matches says how far a walk would go; when the prefix has fewer
   *    matches than that (a broad prefix with rare filters), the indexes win; else walk on.
   * Null: use the indexes.
   */
  private walkBroadSearch(where: readonly string[], params: Record<string, unknown>, limit: number): ExchangePage | null {
    const maxId = (this.maxIdStmt.get() as number | null) ?? 0;
    const cap = Math.max(1_000, Math.ceil(Math.sqrt((limit + 1) * maxId)));
    const prefixMatches = (atMost: number): number => this.searchCountStmt.get({ s: params.s, sEnd: params.sEnd, cap: atMost }) as number;
    if (prefixMatches(cap) < cap) return null;
    const walk = [...where, '((+deposit_id >= @s AND +deposit_id < @sEnd) OR (+user_id >= @s AND +user_id < @sEnd))'];
    const top = typeof params.before === 'number' ? params.before : maxId + 1;
    const floor = top - SEARCH_WINDOW;
    const newest = this.page([...walk, 'id >= @floor'], { ...params, floor }, limit);
    if (newest.nextBeforeId !== null || floor <= 1) return newest;
    const found = newest.items.length;
    const walkCost = Math.ceil(((limit + 1 - found) * SEARCH_WINDOW) / Math.max(found, 0.5));
    if (prefixMatches(walkCost) < walkCost) return null;
    return this.page(walk, params, limit);
  }

  /**
   * Rows by direction. Counting a million rows reads a whole index (50 ms, on the thread that also
   * answers captures), so only rows past the last count are counted: ExchangeStore only ever adds rows,
   * with growing ids. Rows deleted elsewhere (`wager-desk prune` in another process) change
   * data_version, and anything deleted on this connection must call recount(): then all are counted again.
   */
  counts(): { inbound: number; outbound: number } {
    const maxId = (this.maxIdStmt.get() as number | null) ?? 0;
    const version = this.dataVersionStmt.get() as number;
    if (this.counted === null || maxId < this.counted.maxId || version !== this.countedVersion) this.counted = { maxId: 0, inbound: 0, outbound: 0 };
    this.countedVersion = version;
    if (maxId !== this.counted.maxId) {
      const next = { ...this.counted, maxId };
      for (const r of this.countSinceStmt.all(this.counted.maxId) as Array<{ direction: Direction; n: number }>) next[r.direction] += r.n;
      this.counted = next;
    }
    return { inbound: this.counted.inbound, outbound: this.counted.outbound };
  }

  /** Forgets the running counts (after rows were deleted through this connection). */
  recount(): void {
    this.counted = null;
  }

  /** Every exchange whose body names the deposit, oldest first, and derived rows (replays) whose body names none. */
  timeline(depositId: string): Timeline {
    const rows = this.timelineStmt.all({ d: depositId }) as SummaryRow[];
    const entries = rows.map(toSummary);
    return { depositId, entries, flags: timelineFlags(entries) };
  }
}

/** Whether a string is stored as is (no lone UTF-16 surrogate, which the UTF-8 conversion alters). */
function intact(text: string | null): boolean {
  return text === null || (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** The summary of a row just inserted, as toSummary would read it back; null when a string would not read back the same. */
function storedSummary(id: number, x: NewExchange, errors: number): ExchangeSummary | null {
  const k = x.keys;
  if (![x.at, x.method, x.path, x.target, k.depositId, k.userId, k.result, k.gameId, k.currency, k.tournamentId].every(intact)) return null;
  return {
    id,
    direction: x.direction,
    kind: x.kind,
    origin: x.origin,
    at: x.at,
    method: x.method,
    path: x.path,
    target: x.target,
    signature: { verdict: x.signature?.verdict ?? null },
    response: null,
    error: null,
    durationMs: null,
    sourceId: x.sourceId,
    truncated: x.truncated,
    errorCount: errors,
    depositId: k.depositId,
    userId: k.userId,
    result: k.result,
    gameId: k.gameId,
    // SQLite stores NaN as NULL.
    amount: k.amount === null || Number.isNaN(k.amount) ? null : k.amount,
    currency: k.currency,
    tournamentId: k.tournamentId,
  };
}

function errorCount(findings: readonly Finding[]): number {
  let n = 0;
  for (const f of findings) if (f.level === 'error') n++;
  return n;
}
