// Search over the text an exchange stored (its request and answer: path, query, headers, bodies) through
// the trigram index exchange_text (migrations 009, 012). A trigram index finds substrings of three
// characters or more; a shorter search is a prefix of a depositId or userId (the id columns' indexes).
//
// The index is filled in the background (text-indexer.ts), so a search reads it for the rows it holds
// and tests the rest directly (text-match.ts): every row is found the moment it is written, and a search
// does no indexing of its own.
import type { ExchangePage, ExchangeSummary } from '../../../shared/model';
import type { Db } from './open';
import { inSnapshot, PreparedStatements, readAll, readValue, readValues, ReadStopped, runHere, type ReadPlan } from './read-plan';
import { SUMMARY_SELECT, toSummary, type SummaryRow } from '../rows/exchange-rows';
import { RARE_KIND, RARE_VERDICT } from '../rows/rare-values';
import { DIRECT_TEXT_MATCH, NOT_FULLY_INDEXED, textNeedle } from './text-match';

/** The search as one FTS5 phrase: every character literal (quotes doubled), so the text is matched as typed. */
export function textPhrase(search: string): string {
  return `"${search.replaceAll('"', '""')}"`;
}

/** The parameters TEXT_MATCH_CONDITION reads. */
export function textMatchParams(search: string): { phrase: string; needle: string } {
  return { phrase: textPhrase(search), needle: textNeedle(search) };
}

/** The rows whose text holds the search, as a condition on the exchanges table (walks in id order; pages: TextSearch). */
export const TEXT_MATCH_CONDITION =
  `(id IN (SELECT rowid >> 1 FROM exchange_text WHERE exchange_text MATCH @phrase)` +
  ` OR id IN (SELECT new.id FROM exchanges AS new WHERE ${NOT_FULLY_INDEXED} AND ${DIRECT_TEXT_MATCH}))`;

/**
 * Above this many rows under the other filters, the plan starts from the text index. Below it, starting
 * from the filters' index and testing each row's text reads at most this many rows (a few ms each
 * thousand), whatever the word.
 */
const FILTER_FIRST_MAX_ROWS = 5_000;
/**
 * A row's text tested directly costs a few times a document walked in the index (the text is built from
 * the row and searched, where the index only hands back rowids): the filters' rows are read first when
 * they are fewer than the text's matches divided by this.
 */
const DIRECT_COST_RATIO = 4;

/**
 * Filter columns with an index of their own, (column, id), and the condition under which a row is in it
 * (null: every row with a value; else the partial index's condition, which `where` holds when the filter
 * asks for a rare value: rare-values.ts). A walk along one reads only its rows, newest first.
 */
const INDEXED_FILTERS: ReadonlyMap<string, string | null> = new Map([
  ['deposit_id', null],
  ['user_id', null],
  ['verdict', RARE_VERDICT],
  ['kind', RARE_KIND],
]);

/**
 * The equality clauses of `where` on an indexed filter column (`kind = @kind`), each with the partial
 * index's condition it needs: where a filter-first walk can start. A common verdict or kind has no index
 * entries, so it is no place to start.
 */
function indexedClauses(where: readonly string[]): Array<{ clause: string; terms: string }> {
  const found: Array<{ clause: string; terms: string }> = [];
  for (const clause of where) {
    const column = /^(\w+) = @\w+$/.exec(clause)?.[1] ?? '';
    const condition = INDEXED_FILTERS.get(column);
    if (condition === undefined) continue;
    if (condition === null) found.push({ clause, terms: clause });
    else if (where.includes(condition)) found.push({ clause, terms: `${clause} AND ${condition}` });
  }
  return found;
}

/** The filters with the walk pinned to `start`'s index: a `+` keeps the planner off the other columns' indexes. */
export function pinnedTo(start: string, where: readonly string[]): string[] {
  return [start, ...where.filter((w) => w !== start).map((w) => (/^\w+ = @\w+$/.test(w) ? `+${w}` : w))];
}

type Plan = { kind: 'filter-first'; start: string } | { kind: 'index-first' };

/**
 * Pages of the text search, newest first, under the other filters. Two plans, chosen per call by a few
 * counts capped small (each reads at most a few thousand index entries):
 * - index first: the index is walked in reverse rowid order (newest first) and each document's exchange
 *   is read by its key and filtered, so the first page of a common word costs about a page of rows,
 *   not every match. Rows the index does not hold yet are tested directly and merged in.
 * - filter first: when the other filters hold few rows (a deposit, a user, a rare verdict with a kind)
 *   and the word is common, walking the word's matches would read thousands of rows to find the few that
 *   pass the filters (1.4 s at 200,000 rows for `/pay` with verdict missing and kind pay); the filters'
 *   rows are read newest first instead and their text tested directly.
 * The parts of a page are read in one snapshot, so the indexer moving on in between cannot make a row
 * fall between them or show in two. A search stopped by its time budget (ReadStopped) answers with the
 * rows its finished statements found, and says so.
 */
export function* textSearchPage(where: readonly string[], params: Record<string, unknown>, search: string, limit: number): ReadPlan<ExchangePage> {
  const bound = { ...params, ...textMatchParams(search) };
  const before = typeof params.before === 'number' ? params.before : Number.MAX_SAFE_INTEGER;
  return yield* inSnapshot(
    (function* (): ReadPlan<ExchangePage> {
      const found: Found = { rows: [], stopped: null };
      try {
        const plan = yield* choosePlan(where, bound, before);
        if (plan.kind === 'filter-first') yield* filterFirst(pinnedTo(plan.start, where), bound, before, limit, found);
        else yield* indexFirst(where, bound, before, limit, found);
      } catch (err) {
        if (!(err instanceof ReadStopped)) throw err;
        found.stopped = err;
      }
      const items = found.rows.slice(0, limit);
      if (found.stopped) return { items, nextBeforeId: null, stoppedAfterSeconds: found.stopped.afterSeconds };
      return { items, nextBeforeId: found.rows.length > limit ? items[limit - 1]!.id : null };
    })(),
  );
}

/** What a search found so far, newest first, and whether its time ran out. */
type Found = { rows: ExchangeSummary[]; stopped: ReadStopped | null };

/**
 * Which plan reads fewer rows. Each indexed filter's rows are counted alone along its own index,
 * capped (counting them together would walk whichever index the planner picks: for a rare verdict
 * with a common kind, the kind's half of the log); the fewest is where a filter-first walk starts,
 * and the most rows it reads. The word's documents are then counted, capped at what would make that
 * walk the dearer one.
 */
function* choosePlan(where: readonly string[], bound: Record<string, unknown>, before: number): ReadPlan<Plan> {
  let best: { start: string; rows: number } | null = null;
  for (const { clause, terms } of indexedClauses(where)) {
    const rows = yield* readValue<number>(`SELECT count(*) FROM (SELECT 1 FROM exchanges WHERE ${terms} AND id < @beforeId LIMIT @cap)`, {
      ...bound,
      beforeId: before,
      cap: FILTER_FIRST_MAX_ROWS,
    });
    if (rows < (best?.rows ?? FILTER_FIRST_MAX_ROWS)) best = { start: clause, rows };
  }
  if (!best) return { kind: 'index-first' };
  const cap = best.rows * DIRECT_COST_RATIO + 1;
  const textDocuments = yield* readValue<number>(TEXT_COUNT_SQL, { phrase: bound.phrase, cap });
  return textDocuments >= cap ? { kind: 'filter-first', start: best.start } : { kind: 'index-first' };
}

const TEXT_COUNT_SQL = 'SELECT count(*) FROM (SELECT 1 FROM exchange_text WHERE exchange_text MATCH @phrase LIMIT @cap)';
const UP_TO_SQL = 'SELECT indexed_upto FROM exchange_text_state';

/** The page starting from the filters' rows (`where` pinned to one index: pinnedTo), newest first, in growing chunks, each row's text tested. */
function* filterFirst(where: readonly string[], bound: Record<string, unknown>, before: number, limit: number, found: Found): ReadPlan<void> {
  const ids = `SELECT id FROM exchanges WHERE ${[...where, 'id < @beforeId'].join(' AND ')} ORDER BY id DESC LIMIT @n`;
  const test = `SELECT ${SUMMARY_SELECT} FROM exchanges AS new WHERE new.id IN (SELECT value FROM json_each(@ids)) AND ${DIRECT_TEXT_MATCH} ORDER BY new.id DESC`;
  let from = before;
  for (let chunk = Math.max(200, 2 * (limit + 1)); found.rows.length <= limit; chunk *= 2) {
    const candidates = yield* readValues<number>(ids, { ...bound, beforeId: from, n: chunk });
    if (candidates.length === 0) break;
    for (const r of yield* readAll<SummaryRow>(test, { needle: bound.needle, ids: JSON.stringify(candidates) })) found.rows.push(toSummary(r));
    if (candidates.length < chunk) break;
    from = candidates[candidates.length - 1]!;
  }
  found.rows.splice(limit + 1);
}

/**
 * The page from the index for the rows it holds (up to indexed_upto), merged newest first with the
 * rows after it and the rows listed without their answer, both tested directly: each part reads at
 * most a page and one more, so the merged first `limit + 1` are the page's. Stopped, the parts read
 * so far are merged.
 */
function* indexFirst(where: readonly string[], bound: Record<string, unknown>, before: number, limit: number, found: Found): ReadPlan<void> {
  const upTo = yield* readValue<number>(UP_TO_SQL);
  const n = limit + 1;
  const byId = new Map<number, SummaryRow>();
  const merge = (): void => {
    found.rows = [...byId.values()]
      .sort((x, y) => y.id - x.id)
      .slice(0, n)
      .map((r) => toSummary(r));
  };
  const direct = (extra: string): ReadPlan<SummaryRow[]> =>
    readAll<SummaryRow>(
      `SELECT ${SUMMARY_SELECT} FROM exchanges AS new WHERE ${[...where, extra, 'new.id < @beforeId', DIRECT_TEXT_MATCH].join(' AND ')} ORDER BY new.id DESC LIMIT @n`,
      { ...bound, beforeId: before, upTo, n },
    );
  try {
    // The newest part first: a search stopped early still shows the newest matches it reached.
    for (const r of before > upTo + 1 ? yield* direct('new.id > @upTo') : []) byId.set(r.id, r);
    for (const r of yield* direct('new.id IN (SELECT id FROM exchange_text_unanswered)')) byId.set(r.id, r);
    // An exchange is two documents (request, answer; adjacent in that order), so `n` exchanges are at
    // most 2n documents, and a full read of them means there are more.
    const indexed = yield* readAll<SummaryRow>(
      `SELECT ${SUMMARY_SELECT} FROM exchange_text AS f JOIN exchanges ON exchanges.id = f.rowid >> 1 ` +
        `WHERE ${['exchange_text MATCH @phrase', 'f.rowid < @beforeDocument', ...where].join(' AND ')} ORDER BY f.rowid DESC LIMIT @documents`,
      { ...bound, beforeDocument: 2 * Math.min(before, upTo + 1), documents: 2 * n },
    );
    for (const r of indexed) byId.set(r.id, r);
  } finally {
    merge();
  }
}

/** The plans above run at once on one connection: what tests and benchmarks compare the plans with. */
export class TextSearch {
  private readonly statements: PreparedStatements;

  constructor(private readonly db: Db) {
    this.statements = new PreparedStatements(db);
  }

  page(where: readonly string[], params: Record<string, unknown>, search: string, limit: number): ExchangePage {
    return runHere(this.db, this.statements, textSearchPage(where, params, search, limit));
  }

  plan(where: readonly string[], bound: Record<string, unknown>, before: number): Plan {
    return runHere(this.db, this.statements, choosePlan(where, bound, before));
  }

  filterFirst(where: readonly string[], bound: Record<string, unknown>, before: number, limit: number): ExchangeSummary[] {
    const found: Found = { rows: [], stopped: null };
    runHere(this.db, this.statements, filterFirst(where, bound, before, limit, found));
    return found.rows;
  }

  indexFirst(where: readonly string[], bound: Record<string, unknown>, before: number, limit: number): ExchangeSummary[] {
    const found: Found = { rows: [], stopped: null };
    runHere(this.db, this.statements, indexFirst(where, bound, before, limit, found));
    return found.rows;
  }
}
