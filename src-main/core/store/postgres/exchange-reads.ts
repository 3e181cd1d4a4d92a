// Reading the exchange log in PostgreSQL: a page of the list, one exchange, the counts, and following
// the log from any process (`tail`, a desk beside the proxies). Rows come back in the shape SQLite's
// rows have, so the one mapping (exchange-rows.ts) makes summaries and details of both.
//
// Following by id needs one care that SQLite's single writer does not: several proxies draw ids from
// one sequence and commit in their own time, so id 10 may commit after id 11 was read. An id skipped
// by a read is kept as a gap and looked for again, for HOLE_MS (a group's ids were drawn at most a few
// seconds before it commits, spare-ids.ts; ids of a group that failed, or drawn and never used, stay
// empty for good).
import type pg from 'pg';
import { FAULT_NOTE_MARK } from '../../../shared/answered-by';
import type { ExchangeDetail, ExchangePage, ExchangeSummary, FollowPage, Timeline } from '../../../shared/model';
import { DeskFailure } from '../../result';
import { SUMMARY_COLUMNS, toDetails, toSummary, type DetailRow, type DetailRows, type SummaryRow } from '../rows/exchange-rows';
import type { RowFilter } from '../rows/row-filter';
import { idsOf, type IdPage } from '../rows/id-page';
import type { ListQuery } from '../contract/exchange-log';
import { timelineFlags } from '../rows/timeline-flags';
import { PgLogCounts, type LogCounts } from './log-counts';
import { pgText } from './pg-text';
import { isTextSearch } from '../rows/search-kind';
import { ilikePattern, PgTextSearch, textMatchCondition } from './text-search';

const FOLLOW_PAGE = 1000;
/** A page's rows as the list's limit asks (1 to MAX_LIMIT, 100 by default). */
const pageLimit = (q: ListQuery): number => Math.max(1, Math.min(MAX_LIMIT, Math.floor(q.limit ?? 100)));
/** The most rows one page of the list holds. */
export const MAX_LIMIT = 500;
/** How long an id skipped by a follow is looked for again. */
const HOLE_MS = 30_000;
/** A wider jump between two reads is not searched for gaps (ids drawn by many groups that failed). */
const MAX_GAP_SEARCH = 100_000;

// The summary as SQLite reads it: the flag as 0/1, the findings only where a fault note may be.
const SUMMARY_SELECT = `${SUMMARY_COLUMNS.replace('truncated', 'truncated::int AS truncated')}, CASE WHEN strpos(findings, '${FAULT_NOTE_MARK}') > 0 THEN findings END AS fault_findings`;

/** The ids of the exchanges derived from those of `ids` (replays, follow-ups), with their source. */
async function derivedFrom(c: pg.ClientBase, ids: readonly number[]): Promise<DetailRows['derived']> {
  return (await c.query<DetailRows['derived'][number]>('SELECT source_id, id FROM exchanges WHERE source_id = ANY($1::bigint[]) ORDER BY id', [ids])).rows;
}

type FollowRow = SummaryRow & { completed_at: string | null };
const isComplete = (r: FollowRow): boolean => r.completed_at !== null || r.res_status !== null || r.error !== null;

/** The filter's clauses with numbered parameters (`$1`...), after `taken` parameters already placed. */
export function pgFilterWhere(f: RowFilter, taken = 0): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${taken + params.length}`;
  };
  if (!f.allProfiles && f.profile !== undefined) where.push(f.profile === null ? 'profile IS NULL' : `profile = ${param(f.profile)}`);
  const direction = f.direction ?? 'inbound';
  if (direction !== 'all') where.push(`direction = ${param(direction)}`);
  if (f.kind) where.push(`kind = ${param(f.kind)}`);
  if (f.result) where.push(`result = ${param(f.result)}`);
  if (f.verdict) where.push(`verdict = ${param(f.verdict)}`);
  if (f.depositId) where.push(`deposit_id = ${param(f.depositId)}`);
  if (f.userId) where.push(`user_id = ${param(f.userId)}`);
  if (f.search && isTextSearch(f.search)) where.push(textMatchCondition(param(ilikePattern(f.search))));
  else if (f.search) {
    // The list's short search: a prefix of a depositId or userId.
    const s = param(f.search);
    const end = param(`${f.search}\u{10FFFF}`);
    where.push(`((deposit_id >= ${s} AND deposit_id < ${end}) OR (user_id >= ${s} AND user_id < ${end}))`);
  }
  if (f.ids) where.push(`id = ANY(${param(f.ids)}::bigint[])`);
  return { where, params };
}

export class PgExchangeReads {
  /** Ids a follow skipped (not committed yet when read), with when they were first missed. */
  private readonly holes = new Map<number, number>();

  private readonly counted: PgLogCounts;

  private readonly text: PgTextSearch;

  constructor(private readonly client: () => Promise<pg.Client>) {
    this.counted = new PgLogCounts(client);
    this.text = new PgTextSearch(client);
  }

  async list(q: ListQuery): Promise<ExchangePage> {
    const limit = pageLimit(q);
    if (q.search && isTextSearch(q.search)) {
      const { search, ...filters } = q;
      const { where, params } = pgFilterWhere(filters);
      return this.text.page(SUMMARY_SELECT, where, params, search, q.beforeId, limit);
    }
    const rows = await this.plainPage<SummaryRow>(q, SUMMARY_SELECT, limit);
    const items = rows.slice(0, limit).map((r) => toSummary(r));
    return { items, nextBeforeId: rows.length > limit ? items[items.length - 1]!.id : null };
  }

  /** The ids of list()'s page; a page without a text search reads the ids alone. */
  async listIds(q: ListQuery): Promise<IdPage> {
    if (q.search && isTextSearch(q.search)) return idsOf(await this.list(q));
    const limit = pageLimit(q);
    const ids = (await this.plainPage<{ id: number }>(q, 'id', limit)).map((r) => r.id);
    return { ids: ids.slice(0, limit), nextBeforeId: ids.length > limit ? ids[limit - 1]! : null };
  }

  /** The `select` columns of up to `limit` + 1 rows the filter passes (no text search), newest first. */
  private async plainPage<R extends pg.QueryResultRow>(q: ListQuery, select: string, limit: number): Promise<R[]> {
    const { where, params } = pgFilterWhere(q);
    if (q.beforeId !== undefined) (params.push(q.beforeId), where.push(`id < $${params.length}`));
    params.push(limit + 1);
    const sql = `SELECT ${select} FROM exchanges ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT $${params.length}`;
    return (await (await this.client()).query<R>(sql, params)).rows;
  }

  async get(id: number): Promise<ExchangeDetail | null> {
    return toDetails([id], await this.detailRows([id]))[0] ?? null;
  }

  /** The rows of the exchanges of `ids` that exist and the ids derived from them, in two statements. */
  async detailRows(ids: readonly number[]): Promise<DetailRows> {
    if (ids.length === 0) return { rows: [], derived: [] };
    const c = await this.client();
    const rows = await c.query<DetailRow>('SELECT *, truncated::int AS truncated FROM exchanges WHERE id = ANY($1::bigint[])', [ids]);
    return { rows: rows.rows, derived: await derivedFrom(c, ids) };
  }

  /** Every exchange naming the deposit (of one profile, or unassigned ones, when given), and their replays that name none, oldest first. */
  async timeline(depositId: string, profile?: string | null): Promise<Timeline> {
    const params: unknown[] = [pgText(depositId)];
    const scope = profile === undefined ? '' : profile === null ? 'profile IS NULL AND ' : (params.push(profile), 'profile = $2 AND ');
    const rows = (
      await (
        await this.client()
      ).query<SummaryRow>(
        `SELECT ${SUMMARY_SELECT} FROM exchanges WHERE ${scope}deposit_id = $1
         UNION SELECT ${SUMMARY_SELECT} FROM exchanges WHERE deposit_id IS NULL AND source_id IN (SELECT id FROM exchanges WHERE ${scope}deposit_id = $1)
         ORDER BY id`,
        params,
      )
    ).rows;
    const entries = rows.map((r) => toSummary(r));
    return { depositId, profile: profile ?? null, entries, flags: timelineFlags(entries) };
  }

  /** The log's counts, added to since the last whole count (log-counts.ts). */
  counts(): Promise<LogCounts> {
    return this.counted.get();
  }

  /** Rows were deleted through this desk: the next counts are taken whole. */
  forgetCounts(): void {
    this.counted.forget();
  }

  /** As followPlan for SQLite (sqlite/follow-rows.ts), plus the ids a read skipped, looked for again while they may still commit. */
  async follow(filter: RowFilter, afterId: number | null, pendingIds: readonly number[]): Promise<FollowPage> {
    const c = await this.client();
    if (afterId === null) {
      const max = await c.query<{ id: number }>('SELECT coalesce(max(id), 0)::float8 AS id FROM exchanges');
      this.holes.clear();
      return { completed: [], pending: [], afterId: max.rows[0]!.id, more: false };
    }
    if (!Number.isSafeInteger(afterId)) throw new DeskFailure('bad-input', 'afterId is a row id (0 or more) or null.');
    const completed: ExchangeSummary[] = [];
    const pending: number[] = [];
    const now = Date.now();
    for (const [id, since] of this.holes) if (now - since > HOLE_MS) this.holes.delete(id);
    const again = [...new Set([...pendingIds, ...this.holes.keys()])];
    if (again.length > 0) {
      const { where, params } = pgFilterWhere({ ...filter, ids: again });
      // A hole may be a row the filter leaves out: only the id clause decides whether it was committed.
      const rows = (
        await c.query<FollowRow & { wanted: boolean }>(
          `SELECT ${SUMMARY_SELECT}, completed_at, (${where.filter((w) => !w.startsWith('id =')).join(' AND ') || 'true'}) AS wanted FROM exchanges WHERE id = ANY($${params.length}::bigint[]) ORDER BY id`,
          params,
        )
      ).rows;
      for (const r of rows) {
        this.holes.delete(r.id);
        if (!r.wanted) continue;
        if (isComplete(r)) completed.push(toSummary(r));
        else pending.push(r.id);
      }
    }
    const { where, params } = pgFilterWhere(filter);
    params.push(afterId, FOLLOW_PAGE + 1);
    const sql = `SELECT ${SUMMARY_SELECT}, completed_at FROM exchanges WHERE ${[...where, `id > $${params.length - 1}`].join(' AND ')} ORDER BY id LIMIT $${params.length}`;
    const rows = (await c.query<FollowRow>(sql, params)).rows;
    const more = rows.length > FOLLOW_PAGE;
    const fresh = rows.slice(0, FOLLOW_PAGE);
    for (const r of fresh)
      if (!pending.includes(r.id) && !completed.some((x) => x.id === r.id)) isComplete(r) ? completed.push(toSummary(r)) : pending.push(r.id);
    const last = fresh.length > 0 ? fresh[fresh.length - 1]!.id : afterId;
    // Ids between the cursor and the last row read that the read did not see: a group still committing
    // (looked for again until HOLE_MS), or ids drawn and never used (they stay empty). Only a row the
    // filter leaves out is no gap. This statement sees a later moment than the read: a row that committed
    // in between is there now and was not read, so it is a gap too, found by the next follow.
    if (last - afterId > fresh.length && last - afterId <= MAX_GAP_SEARCH) {
      const seen = new Set(fresh.map((r) => r.id));
      const leftOut = pgFilterWhere(filter, 2);
      const skipped = await c.query<{ id: number }>(
        `SELECT g.id::float8 AS id FROM generate_series($1::bigint + 1, $2::bigint - 1) AS g(id)
         WHERE NOT EXISTS (SELECT 1 FROM exchanges WHERE exchanges.id = g.id AND NOT coalesce(${leftOut.where.join(' AND ') || 'true'}, false)) LIMIT 10000`,
        [afterId, last, ...leftOut.params],
      );
      for (const { id } of skipped.rows) if (!seen.has(id) && !this.holes.has(id)) this.holes.set(id, now);
    }
    completed.sort((x, y) => x.id - y.id);
    return { completed, pending, afterId: last, more };
  }
}
