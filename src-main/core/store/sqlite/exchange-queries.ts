// The read side of the exchange log: pages of summaries (newest first, filtered, searched: the text of
// three characters or more through the text index (text-search.ts), a shorter one as an id prefix),
// a deposit's timeline, and the running counts by direction (running-counts.ts). Summaries are read with the same mapping
// (exchange-rows.ts) as the store uses for a row it just wrote. Each read is a plan (read-plan.ts): run on
// the desk's connection by ExchangeQueries, or on a reading thread by reading-threads.ts.
import type { ExchangeDetail, ExchangePage, ExchangeQuery, Timeline } from '../../../shared/model';
import type { Db } from './open';
import { PreparedStatements, readAll, readOne, readValue, ReadStopped, runHere, type ReadPlan } from './read-plan';
import {
  SUMMARY_SELECT,
  toDetails,
  toStoredRequest,
  toSummary,
  type DetailRow,
  type DetailRows,
  type StoredRequest,
  type SummaryRow,
} from '../rows/exchange-rows';
import { RunningCounts, type LogCounts } from './running-counts';
import type { RowFilter } from '../rows/row-filter';
import { columnWhere, profileWhere } from './row-where';
import { timelineFlags } from '../rows/timeline-flags';
import { idsOf, type IdPage } from '../rows/id-page';
import { isTextSearch } from '../rows/search-kind';
import { textSearchPage } from './text-search';

const MAX_LIMIT = 1000;
/** Ids a broad search reads first, newest first (see walkBroadSearch). */
const SEARCH_WINDOW = 20_000;

type ListQuery = Omit<ExchangeQuery, 'profile'> & Pick<RowFilter, 'profile'>;

const MAX_ID_SQL = 'SELECT max(id) FROM exchanges';
// Capped: reads at most `cap` entries of each index, whatever the prefix.
const SEARCH_COUNT_SQL = `SELECT (SELECT count(*) FROM (SELECT 1 FROM exchanges WHERE deposit_id >= @s AND deposit_id < @sEnd LIMIT @cap))
              + (SELECT count(*) FROM (SELECT 1 FROM exchanges WHERE user_id >= @s AND user_id < @sEnd LIMIT @cap))`;
const TIMELINE_SQL = `SELECT ${SUMMARY_SELECT} FROM exchanges WHERE deposit_id = @d
       UNION SELECT ${SUMMARY_SELECT} FROM exchanges WHERE deposit_id IS NULL AND source_id IN (SELECT id FROM exchanges WHERE deposit_id = @d)
       ORDER BY id`;
// A deposit id under two profiles is two deposits: each profile's timeline holds only its rows (and their replays).
const PROFILE_TIMELINE_SQL = `SELECT ${SUMMARY_SELECT} FROM exchanges WHERE profile = @p AND deposit_id = @d
       UNION SELECT ${SUMMARY_SELECT} FROM exchanges WHERE deposit_id IS NULL AND source_id IN (SELECT id FROM exchanges WHERE profile = @p AND deposit_id = @d)
       ORDER BY id`;
const UNASSIGNED_TIMELINE_SQL = `SELECT ${SUMMARY_SELECT} FROM exchanges WHERE profile IS NULL AND deposit_id = @d
       UNION SELECT ${SUMMARY_SELECT} FROM exchanges WHERE deposit_id IS NULL AND source_id IN (SELECT id FROM exchanges WHERE profile IS NULL AND deposit_id = @d)
       ORDER BY id`;

/**
 * `q.profile`: one profile's rows, null: unassigned ones; absent (or allProfiles): every row. A list
 * stopped by its time budget says so (a text search, with the rows it found by then).
 */
export function* listPlan(q: ListQuery = {}): ReadPlan<ExchangePage> {
  try {
    return yield* listOf(q);
  } catch (err) {
    if (!(err instanceof ReadStopped)) throw err;
    return { items: [], nextBeforeId: null, stoppedAfterSeconds: err.afterSeconds };
  }
}

/** listPlan's page as its ids: made where the plan runs (a reading thread), so that only the ids cross to the caller. */
export function* listIdsPlan(q: ListQuery = {}): ReadPlan<IdPage> {
  return idsOf(yield* listPlan(q));
}

function* listOf(q: ListQuery): ReadPlan<ExchangePage> {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (!q.allProfiles) profileWhere(q.profile, where, params);
  columnWhere(q, where, params);
  const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(q.limit ?? 100)));
  if (q.search && isTextSearch(q.search))
    return yield* textSearchPage(where, q.beforeId !== undefined ? { ...params, before: q.beforeId } : params, q.search, limit);
  if (q.beforeId !== undefined) (where.push('id < @before'), (params.before = q.beforeId));
  params.limit = limit + 1;
  if (q.search) {
    params.s = q.search;
    params.sEnd = `${q.search}\u{10FFFF}`;
    const walked = yield* walkBroadSearch(where, params, limit);
    if (walked) return walked;
    // A prefix range on each indexed column: both halves are index range scans.
    where.push(
      `id IN (SELECT id FROM exchanges WHERE deposit_id >= @s AND deposit_id < @sEnd UNION SELECT id FROM exchanges WHERE user_id >= @s AND user_id < @sEnd)`,
    );
  }
  return yield* pagePlan(where, params, limit);
}

function* pagePlan(where: readonly string[], params: Record<string, unknown>, limit: number): ReadPlan<ExchangePage> {
  const sql = `SELECT ${SUMMARY_SELECT} FROM exchanges ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`;
  const rows = yield* readAll<SummaryRow>(sql, params);
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
function* walkBroadSearch(where: readonly string[], params: Record<string, unknown>, limit: number): ReadPlan<ExchangePage | null> {
  const maxId = (yield* readValue<number | null>(MAX_ID_SQL)) ?? 0;
  const cap = Math.max(1_000, Math.ceil(Math.sqrt((limit + 1) * maxId)));
  const prefixMatches = (atMost: number): ReadPlan<number> => readValue<number>(SEARCH_COUNT_SQL, { s: params.s, sEnd: params.sEnd, cap: atMost });
  if ((yield* prefixMatches(cap)) < cap) return null;
  const walk = [...where, '((+deposit_id >= @s AND +deposit_id < @sEnd) OR (+user_id >= @s AND +user_id < @sEnd))'];
  const top = typeof params.before === 'number' ? params.before : maxId + 1;
  const floor = top - SEARCH_WINDOW;
  const newest = yield* pagePlan([...walk, 'id >= @floor'], { ...params, floor }, limit);
  if (newest.nextBeforeId !== null || floor <= 1) return newest;
  const found = newest.items.length;
  const walkCost = Math.ceil(((limit + 1 - found) * SEARCH_WINDOW) / Math.max(found, 0.5));
  if ((yield* prefixMatches(walkCost)) < walkCost) return null;
  return yield* pagePlan(walk, params, limit);
}

/** Raw request bytes and headers of one exchange (with its kind, and whether the body was cut), without decoding the rest. */
export function* requestOfPlan(id: number): ReadPlan<StoredRequest | null> {
  const row = yield* readOne<DetailRow>('SELECT * FROM exchanges WHERE id = ?', [id]);
  return row ? toStoredRequest(row) : null;
}

// The ids come as one JSON array: one statement whatever their number, and no limit on bound parameters.
const DETAILS_SQL = 'SELECT * FROM exchanges WHERE id IN (SELECT value FROM json_each(?))';
const DERIVED_SQL = 'SELECT source_id, id FROM exchanges WHERE source_id IN (SELECT value FROM json_each(?)) ORDER BY id';

/** The rows of the exchanges of `ids` that exist and the ids derived from them, in two statements. */
export function* detailRowsPlan(ids: readonly number[]): ReadPlan<DetailRows> {
  if (ids.length === 0) return { rows: [], derived: [] };
  const list = JSON.stringify(ids);
  const rows = yield* readAll<DetailRow>(DETAILS_SQL, [list]);
  return { rows, derived: yield* readAll<DetailRows['derived'][number]>(DERIVED_SQL, [list]) };
}

/** One exchange whole, with the ids of the rows derived from it (its replays). */
export function* detailPlan(id: number): ReadPlan<ExchangeDetail | null> {
  return toDetails([id], yield* detailRowsPlan([id]))[0] ?? null;
}

/**
 * Every exchange of the profile whose body names the deposit, oldest first, and derived rows (replays)
 * whose body names none. `profile` null: the unassigned rows; absent: every profile's (a log without profiles).
 */
export function* timelinePlan(depositId: string, profile?: string | null): ReadPlan<Timeline> {
  const sql = profile === undefined ? TIMELINE_SQL : profile === null ? UNASSIGNED_TIMELINE_SQL : PROFILE_TIMELINE_SQL;
  const rows = yield* readAll<SummaryRow>(sql, profile ? { d: depositId, p: profile } : { d: depositId });
  const entries = rows.map((r) => toSummary(r));
  return { depositId, profile: profile ?? null, entries, flags: timelineFlags(entries) };
}

/** The reads above, run at once on the desk's connection. */
export class ExchangeQueries {
  private readonly statements: PreparedStatements;
  private readonly dataVersionStmt;
  readonly running = new RunningCounts();

  constructor(private readonly db: Db) {
    this.statements = new PreparedStatements(db);
    // Changes when another connection (another process) commits: then the running counts may be off.
    this.dataVersionStmt = db.prepare('PRAGMA data_version').pluck();
  }

  /** `q.profile`: one profile's rows, null: unassigned ones; absent (or allProfiles): every row. */
  list(q: ListQuery = {}): ExchangePage {
    return runHere(this.db, this.statements, listPlan(q));
  }

  /** Rows by direction, counted incrementally (RunningCounts). */
  counts(): LogCounts {
    return runHere(this.db, this.statements, this.running.plan(this.dataVersion()));
  }

  /** This connection's data_version: moves when another connection commits. */
  dataVersion(): number {
    return this.dataVersionStmt.get() as number;
  }

  /** Forgets the running counts (after rows were deleted through this connection). */
  recount(): void {
    this.running.recount();
  }

  timeline(depositId: string, profile?: string | null): Timeline {
    return runHere(this.db, this.statements, timelinePlan(depositId, profile));
  }

  detailRows(ids: readonly number[]): DetailRows {
    return runHere(this.db, this.statements, detailRowsPlan(ids));
  }
}
