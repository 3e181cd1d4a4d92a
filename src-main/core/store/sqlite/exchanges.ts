// The exchange log: every request the desk saw or made, with its response. This file is the write side
// and the reads of one row; pages, timelines and counts are in exchange-queries.ts. A row just written
// is announced with the summary the same mapping (exchange-rows.ts) makes of a row read back.
import type { Direction, ExchangeDetail, ExchangePage, ExchangeQuery, ExchangeSummary, Finding, SignatureReport, Timeline } from '../../../shared/model';
import { boundAnswerNotes } from '../../capture/bounds';
import type { Db } from './open';
import { NEXT_EXCHANGE_ID } from './migrations/014-ids-never-reused-and-text-index-retiring';
import {
  COMPLETE_COLUMNS,
  completionParams,
  completionValues,
  errorCount,
  INSERT_COLUMNS,
  insertParams,
  insertValues,
  type InsertColumn,
} from '../rows/exchange-values';
import type { ExchangeCompletion, NewExchange } from '../../capture/new-exchange';

export type { ExchangeCompletion, NewExchange };
import { SUMMARY_COLUMNS, SUMMARY_SELECT, faultFindingsOf, toDetail, toSummary, type DetailRow, type DetailRows, type SummaryRow } from '../rows/exchange-rows';
import { ExchangeQueries } from './exchange-queries';
import type { ReadPlan } from './read-plan';
import type { LogCounts } from './running-counts';
import type { RowFilter } from '../rows/row-filter';
import { SignedRows, type Rejudged } from './signed-rows';

/** Summary rows kept for rows inserted here and not completed yet (exchanges in flight), at most. */
const OPEN_SUMMARIES = 4096;

export class ExchangeStore {
  private readonly insertStmt;
  private readonly completeStmt;
  private readonly summaryStmt;
  private readonly detailStmt;
  private readonly derivedStmt;
  private readonly findingsStmt;
  private readonly setFindingsStmt;
  private readonly queries: ExchangeQueries;
  private readonly signed: SignedRows;
  /**
   * The summary rows of rows inserted and not yet completed, so that complete() announces the finished
   * row without reading it back (bench/proxy.ts: that read was 4.5% of a forwarding proxy's CPU). Bounded;
   * kept in step by every change to an open row (addFindings patches it; summary() refreshes it).
   */
  private readonly open = new Map<number, SummaryRow>();

  constructor(
    db: Db,
    private readonly onChange: (summary: ExchangeSummary) => void = () => {},
    /** Whether anyone reads the announcements now: when nobody does, the proxy's writes skip building them. */
    private readonly listening: () => boolean = () => true,
  ) {
    // Positional parameters: better-sqlite3 looks each named one up in the object it is given, and with
    // 27 of them that made a capture's write path about 2 µs (7%) dearer (an A/B of this store in-process).
    // The id is given, not left to SQLite, which would give a deleted newest row's id again (migration 014).
    this.insertStmt = db.prepare(
      `INSERT INTO exchanges (id, ${INSERT_COLUMNS.join(', ')}) VALUES (${NEXT_EXCHANGE_ID}, ${INSERT_COLUMNS.map(() => '?').join(', ')})`,
    );
    this.completeStmt = db.prepare(`UPDATE exchanges SET ${COMPLETE_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`);
    this.summaryStmt = db.prepare(`SELECT ${SUMMARY_SELECT} FROM exchanges WHERE id = ?`);
    this.detailStmt = db.prepare(`SELECT * FROM exchanges WHERE id = ?`);
    this.derivedStmt = db.prepare(`SELECT id FROM exchanges WHERE source_id = ? ORDER BY id`).pluck();
    this.findingsStmt = db.prepare('SELECT findings FROM exchanges WHERE id = ?').pluck();
    this.setFindingsStmt = db.prepare('UPDATE exchanges SET findings = ?, error_count = ? WHERE id = ?');
    this.queries = new ExchangeQueries(db);
    this.signed = new SignedRows(db);
  }

  /** Records a signature judged again (and when, with what), and announces the row. */
  rejudge(id: number, report: SignatureReport, judged: Rejudged): void {
    if (!this.signed.update(id, report, judged)) return;
    const row = this.summaryStmt.get(id) as SummaryRow;
    if (this.open.has(id)) this.open.set(id, row);
    this.onChange(toSummary(row));
  }

  /**
   * Writes the request (and its verdict and findings) and returns its summary. Synchronous: durable on
   * return, or when the enclosing transaction commits (the proxy's group commit, a HAR import).
   */
  insert(x: NewExchange): ExchangeSummary {
    const summary = toSummary(this.insertRow(x));
    this.onChange(summary);
    return summary;
  }

  /**
   * As insert, returning only the new row's id: the proxy's write, which builds the row's summary only
   * when someone listens for it (a headless `serve` has nobody; bench/proxy.ts: 2 to 3% of its CPU).
   */
  record(x: NewExchange): number {
    if (!this.listening()) return this.insertOnly(insertValues(x));
    const row = this.insertRow(x);
    this.onChange(toSummary(row));
    return row.id;
  }

  /** The insert alone: no summary kept for the row's completion (whoever listens later reads it back). */
  private insertOnly(values: Record<InsertColumn, unknown>): number {
    const id = Number(this.insertStmt.run(insertParams(values)).lastInsertRowid);
    this.queries.running.wrote(id, values.direction as Direction);
    return id;
  }

  private insertRow(x: NewExchange): SummaryRow {
    const values = insertValues(x);
    const id = this.insertOnly(values);
    // Mapped from what was bound rather than read back (a SELECT a capture; bench/store.ts measured it,
    // and RETURNING, which is slower still). A string with a lone surrogate (JSON may carry "\ud800") is
    // stored altered: that rare row is read back instead.
    const row = storedRow(id, values) ?? (this.summaryStmt.get(id) as SummaryRow);
    this.open.set(id, row);
    if (this.open.size > OPEN_SUMMARIES) this.open.delete(this.open.keys().next().value!);
    return row;
  }

  /** Records the response, or the error that stood in its place. */
  complete(id: number, c: ExchangeCompletion): ExchangeSummary {
    const summary = toSummary(this.completeRow(id, c));
    this.onChange(summary);
    return summary;
  }

  /** As complete, returning nothing: the proxy's write, which announces the row only when someone listens. */
  finish(id: number, c: ExchangeCompletion): void {
    if (!this.listening()) {
      this.open.delete(id);
      this.completeOnly(id, c);
      return;
    }
    this.onChange(toSummary(this.completeRow(id, c)));
  }

  private completeRow(id: number, c: ExchangeCompletion): SummaryRow {
    const before = this.open.get(id);
    this.open.delete(id);
    this.completeOnly(id, c);
    return before && intact(c.error)
      ? // SQLite stores NaN as NULL.
        { ...before, res_status: c.response?.status ?? null, error: c.error, duration_ms: Number.isNaN(c.durationMs) ? null : c.durationMs }
      : (this.summaryStmt.get(id) as SummaryRow);
  }

  /** The UPDATE alone. */
  private completeOnly(id: number, c: ExchangeCompletion): void {
    const info = this.completeStmt.run(completionParams(completionValues(c), id));
    if (info.changes === 0) throw new Error(`Exchange ${id} does not exist.`);
  }

  /**
   * Appends findings made after the row was written (a forwarded answer stored cut, a token endpoint's
   * answer) and announces the updated row. They are bounded to the room the judge left for them, however
   * many a hostile answer makes. An empty list changes nothing and reads nothing.
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
    merged.push(...boundAnswerNotes(findings));
    const errors = errorCount(merged);
    const text = JSON.stringify(merged);
    this.setFindingsStmt.run(text, errors, id);
    // Only the findings changed: a row in flight is patched rather than read back.
    const before = this.open.get(id);
    const row = before ? { ...before, error_count: errors, fault_findings: faultFindingsOf(text) } : (this.summaryStmt.get(id) as SummaryRow);
    if (before) this.open.set(id, row);
    this.onChange(toSummary(row));
  }

  summary(id: number): ExchangeSummary | null {
    const row = this.summaryStmt.get(id) as SummaryRow | undefined;
    if (!row) return null;
    if (this.open.has(id)) this.open.set(id, row);
    return toSummary(row);
  }

  get(id: number): ExchangeDetail | null {
    const row = this.detailStmt.get(id) as DetailRow | undefined;
    if (!row) return null;
    return toDetail(row, this.derivedStmt.all(id) as number[]);
  }

  /** The rows of the exchanges of `ids` that exist, and the ids derived from them. */
  detailRows(ids: readonly number[]): DetailRows {
    return this.queries.detailRows(ids);
  }

  /** `q.profile`: one profile's rows, null: unassigned ones; absent (or allProfiles): every row. */
  list(q: Omit<ExchangeQuery, 'profile'> & Pick<RowFilter, 'profile'> = {}): ExchangePage {
    return this.queries.list(q);
  }

  /** Rows by direction, counted here and now on this connection (tests; the desk counts on a reading thread: countsPlan). */
  counts(): LogCounts {
    return this.queries.counts();
  }

  /** The counts last read and this connection's rows written since, without SQL (running-counts.ts). */
  knownCounts(): LogCounts {
    return this.queries.running.known();
  }

  /** Whether knownCounts() may be off until the next count (countsPlan). */
  countsStale(): boolean {
    return this.queries.running.stale();
  }

  /** Forgets the running counts (after rows were deleted through this connection). */
  recount(): void {
    this.queries.recount();
  }

  /**
   * The counts as a plan for a reading thread, kept with the running counts this store keeps; `version`:
   * this connection's data_version (default: read now), which moves when another process commits.
   */
  countsPlan(version = this.queries.dataVersion()): ReadPlan<LogCounts> {
    return this.queries.running.plan(version);
  }

  /** Every exchange whose body names the deposit, oldest first, and derived rows (replays) whose body names none. */
  timeline(depositId: string, profile?: string | null): Timeline {
    return this.queries.timeline(depositId, profile);
  }
}

/** The summary columns a new row's values set (the rest: its id, and the completion's, still empty). */
const SUMMARY_FROM_INSERT = SUMMARY_COLUMNS.split(', ').filter((c): c is InsertColumn => (INSERT_COLUMNS as readonly string[]).includes(c));

/** Whether a string is stored as is (no lone UTF-16 surrogate, which the UTF-8 conversion alters). */
function intact(text: unknown): boolean {
  return typeof text !== 'string' || (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/**
 * The summary row SQLite now holds for these bound values, as the summary SELECT would read it: the
 * summary columns taken from the values, the completion's still empty. Null when a string would not
 * read back the same.
 */
function storedRow(id: number, v: Record<InsertColumn, unknown>): SummaryRow | null {
  const row: Record<string, unknown> = { id, res_status: null, error: null, duration_ms: null, fault_findings: faultFindingsOf(v.findings as string | null) };
  for (const column of SUMMARY_FROM_INSERT) {
    const value = v[column];
    if (!intact(value)) return null;
    // SQLite stores NaN as NULL.
    row[column] = typeof value === 'number' && Number.isNaN(value) ? null : value;
  }
  return row as unknown as SummaryRow;
}
