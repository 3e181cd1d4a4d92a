// The read side of the exchange log: pages of summaries (newest first, filtered, searched: the text of
// three characters or more through the text index (text-search.ts), a shorter one as an id prefix),
// a deposit's timeline, and the running counts by direction. Summaries are read with the same mapping
// (exchange-rows.ts) as the store uses for a row it just wrote.
import type { Direction, ExchangePage, ExchangeQuery, Timeline } from '../../../shared/model';
import type { Db } from './open';
import { SUMMARY_SELECT, toSummary, type SummaryRow } from '../rows/exchange-rows';
import type { RowFilter } from '../rows/row-filter';
import { columnWhere, profileWhere } from './row-where';
import { timelineFlags } from '../rows/timeline-flags';
import { isTextSearch } from '../rows/search-kind';
import { TextSearch } from './text-search';

const MAX_LIMIT = 1000;
/** Ids a broad search reads first, newest first (see walkBroadSearch). */
const SEARCH_WINDOW = 20_000;

export class ExchangeQueries {
  private readonly countSinceStmt;
  private readonly maxIdStmt;
  private readonly dataVersionStmt;
  private readonly searchCountStmt;
  private readonly timelineStmt;
  private readonly profileTimelineStmt;
  private readonly unassignedTimelineStmt;
  private readonly listCache = new Map<string, ReturnType<Db['prepare']>>();
  private readonly text: TextSearch;
  /** Rows counted so far, up to maxId: counts() adds only the rows written since (deletes call recount()). */
  private counted: { maxId: number; inbound: number; outbound: number } | null = null;
  private countedVersion = -1;

  constructor(private readonly db: Db) {
    this.text = new TextSearch(db);
    // `+direction`: grouping along the direction index would read all of it (tens of ms at 300,000 rows,
    // on every commit of a lone send); the rowid range reads only the rows written since.
    this.countSinceStmt = db.prepare(`SELECT direction, count(*) AS n FROM exchanges WHERE id > ? GROUP BY +direction`);
    this.maxIdStmt = db.prepare('SELECT max(id) FROM exchanges').pluck();
    // Changes when another connection (another process) commits: then the running counts may be off.
    this.dataVersionStmt = db.prepare('PRAGMA data_version').pluck();
    // Capped: reads at most `cap` entries of each index, whatever the prefix.
    this.searchCountStmt = db
      .prepare(
        `SELECT (SELECT count(*) FROM (SELECT 1 FROM exchanges WHERE deposit_id >= @s AND deposit_id < @sEnd LIMIT @cap))
              + (SELECT count(*) FROM (SELECT 1 FROM exchanges WHERE user_id >= @s AND user_id < @sEnd LIMIT @cap))`,
      )
      .pluck();
    this.timelineStmt = db.prepare(
      `SELECT ${SUMMARY_SELECT} FROM exchanges WHERE deposit_id = @d
       UNION SELECT ${SUMMARY_SELECT} FROM exchanges WHERE deposit_id IS NULL AND source_id IN (SELECT id FROM exchanges WHERE deposit_id = @d)
       ORDER BY id`,
    );
    // A deposit id under two profiles is two deposits: each profile's timeline holds only its rows (and their replays).
    this.profileTimelineStmt = db.prepare(
      `SELECT ${SUMMARY_SELECT} FROM exchanges WHERE profile = @p AND deposit_id = @d
       UNION SELECT ${SUMMARY_SELECT} FROM exchanges WHERE deposit_id IS NULL AND source_id IN (SELECT id FROM exchanges WHERE profile = @p AND deposit_id = @d)
       ORDER BY id`,
    );
    this.unassignedTimelineStmt = db.prepare(
      `SELECT ${SUMMARY_SELECT} FROM exchanges WHERE profile IS NULL AND deposit_id = @d
       UNION SELECT ${SUMMARY_SELECT} FROM exchanges WHERE deposit_id IS NULL AND source_id IN (SELECT id FROM exchanges WHERE profile IS NULL AND deposit_id = @d)
       ORDER BY id`,
    );
  }

  /** `q.profile`: one profile's rows, null: unassigned ones; absent (or allProfiles): every row. */
  list(q: Omit<ExchangeQuery, 'profile'> & Pick<RowFilter, 'profile'> = {}): ExchangePage {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (!q.allProfiles) profileWhere(q.profile, where, params);
    columnWhere(q, where, params);
    const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(q.limit ?? 100)));
    if (q.search && isTextSearch(q.search))
      return this.text.page(where, q.beforeId !== undefined ? { ...params, before: q.beforeId } : params, q.search, limit);
    if (q.beforeId !== undefined) (where.push('id < @before'), (params.before = q.beforeId));
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
    const sql = `SELECT ${SUMMARY_SELECT} FROM exchanges ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`;
    let stmt = this.listCache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.listCache.set(sql, stmt);
    }
    const rows = stmt.all(params) as SummaryRow[];
    const items = rows.slice(0, limit).map((r) => toSummary(r));
    return { items, nextBeforeId: rows.length > limit ? items[items.length - 1]!.id : null };
  }

  /**
   * A short search (under three characters) is a prefix of a depositId or userId: a range on two indexes: cheap when it matches few rows, but a broad prefix ("u",
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

  /**
   * Every exchange of the profile whose body names the deposit, oldest first, and derived rows (replays)
   * whose body names none. `profile` null: the unassigned rows; absent: every profile's (a log without profiles).
   */
  timeline(depositId: string, profile?: string | null): Timeline {
    const stmt = profile === undefined ? this.timelineStmt : profile === null ? this.unassignedTimelineStmt : this.profileTimelineStmt;
    const rows = stmt.all(profile ? { d: depositId, p: profile } : { d: depositId }) as SummaryRow[];
    const entries = rows.map((r) => toSummary(r));
    return { depositId, profile: profile ?? null, entries, flags: timelineFlags(entries) };
  }
}
