// Text search over a team's exchange log in PostgreSQL: the rows whose request or answer text holds the
// search (migration 002 says what that text is), newest first, with the same pages as SQLite's search.
//
// The match is ILIKE on text in the "C" collation: a substring, ASCII letters in either case, every other
// character as typed (`%`, `_` and `\` escaped). SQLite's direct test folds ASCII only too; its FTS5 index
// also folds other letters (É and é), so there a search differing from the text only in the case of a
// non-ASCII letter finds the rows indexed and not the others; here it finds neither, indexed or not.
//
// Rows the background indexer (text-indexer.ts) has filled are searched in exchange_text, through its
// pg_trgm trigram indexes; the rest (after indexed_upto, indexed before their answer came, or committed
// after the indexer passed their id) are tested directly with the same text functions, so every row is
// found the moment it commits.
//
// Newest first is where a trigram index does not help: its matches come as a bitmap, all of them, and a
// common word's bitmap is most of the log. So the newest WALK_ROWS indexed rows are read in order and
// tested first (a common word fills its page there; one found there, but less often, is walked on as
// far as its rate says the page needs), and only then is the rest left to the planner, which takes the
// trigram index for a rare word. Under a deposit or user filter
// (a few rows by nature) the rows are read from that filter's index instead, each row's text tested.
import type pg from 'pg';
import type { ExchangePage } from '../../../shared/model';
import { toSummary, type SummaryRow } from '../rows/exchange-rows';
import { pgText } from './pg-text';
import { hasAnswer } from './text-index';

/** Indexed rows read in id order, tested one by one, before the trigram index is asked for the rest. */
const WALK_ROWS = 1_000;
/** At most this many more, for a word the first walk found but too few times. */
const MAX_WALK_ROWS = 20_000;

/** The search as an ILIKE pattern for a substring: `\`, `%` and `_` taken literally. */
export function ilikePattern(search: string): string {
  return `%${pgText(search).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Whether the row `row` (a table alias or name) holds the pattern `$p`, tested directly from its columns. */
export function directTextMatch(row: string, p: string): string {
  return `((wager_desk_request_text(${row}) COLLATE "C") ILIKE ${p}` + ` OR (${hasAnswer(row)} AND (wager_desk_answer_text(${row}) COLLATE "C") ILIKE ${p}))`;
}

const UP_TO = '(SELECT indexed_upto FROM exchange_text_state)';

/** The rows up to indexed_upto that the index does not answer for in full: tested directly. */
const UNINDEXED_IDS = 'SELECT exchange_id FROM exchange_text_unanswered UNION ALL SELECT id FROM exchange_text_gaps';

/** The rows of `exchanges` holding `$p`, as one condition (for the walks that read in id order: follow, reverify, delete). */
export function textMatchCondition(p: string): string {
  return (
    `(id IN (SELECT exchange_id FROM exchange_text WHERE text ILIKE ${p} OR answer ILIKE ${p})` +
    ` OR ((id > ${UP_TO} OR id IN (${UNINDEXED_IDS})) AND ${directTextMatch('exchanges', p)}))`
  );
}

/** One statement of a page: the filters and `clauses`, newest first (every statement takes the same parameters). */
type Run = (clauses: readonly string[], from?: string) => Promise<SummaryRow[]>;

/** Filters on which the rest of a page is read from the filter's index: a deposit's or a user's rows are few. */
const SELECTIVE = /^(deposit_id|user_id) = \$\d+$/;

export class PgTextSearch {
  constructor(private readonly client: () => Promise<pg.Client>) {}

  /**
   * A page of the rows holding `search` under the filters `where` (numbered parameters `params`), below
   * `beforeId`, newest first. `select`: the summary's columns.
   *
   * Each statement reads indexed_upto itself, and the indexer only moves it on: the rows after the value
   * the first statement read are tested directly, and every row up to the (same or larger) value a later
   * statement reads is in the index, so together they miss no row (one found twice is kept once).
   */
  async page(
    select: string,
    where: readonly string[],
    params: readonly unknown[],
    search: string,
    beforeId: number | undefined,
    limit: number,
  ): Promise<ExchangePage> {
    const c = await this.client();
    const n = limit + 1;
    const values = [...params, ilikePattern(search), beforeId ?? Number.MAX_SAFE_INTEGER];
    const p = `$${values.length - 1}`;
    const before = `$${values.length}::bigint`;
    const below = `LEAST(${before}, ${UP_TO} + 1)`;
    const run: Run = async (clauses, from = 'exchanges') =>
      (await c.query<SummaryRow>(`SELECT ${select} FROM ${from} WHERE ${[...where, ...clauses].join(' AND ')} ORDER BY id DESC LIMIT ${n}`, values)).rows;
    // Rows the index does not hold, or holds without their answer, tested directly in one statement. The
    // list is looked up by key (`= ANY(ARRAY(...))`): as a join, the planner may walk the log down to the
    // list's oldest id, testing each row's text on the way.
    const direct = (clauses: readonly string[], afterIndex: boolean): string =>
      `(SELECT ${select}, ${afterIndex} AS after_index FROM exchanges WHERE ${[...where, ...clauses, directTextMatch('exchanges', p)].join(' AND ')} ORDER BY id DESC LIMIT ${n})`;
    const unindexed = await c.query<SummaryRow & { after_index: boolean }>(
      `${direct([`id > ${UP_TO}`, `id < ${before}`], true)} UNION ALL ${direct([`id = ANY(ARRAY(${UNINDEXED_IDS}))`, `id < ${below}`], false)}`,
      values,
    );
    const found: SummaryRow[] = unindexed.rows;
    // A full page after the index: the rows it holds are all older.
    if (unindexed.rows.filter((r) => r.after_index).length < n)
      found.push(
        ...(await this.indexed(
          run,
          p,
          below,
          n,
          where.some((w) => SELECTIVE.test(w)),
        )),
      );
    const byId = new Map<number, SummaryRow>();
    for (const r of found) byId.set(r.id, r);
    const rows = [...byId.values()].sort((x, y) => y.id - x.id).slice(0, n);
    const items = rows.slice(0, limit).map((r) => toSummary(r));
    return { items, nextBeforeId: rows.length > limit ? items[limit - 1]!.id : null };
  }

  /**
   * The newest `n` indexed rows below `below` holding `p`: the newest WALK_ROWS in id order, then the
   * rest (`selective`: under a deposit's or user's filter, all from that filter's index).
   */
  private async indexed(run: Run, p: string, below: string, n: number, selective: boolean): Promise<SummaryRow[]> {
    const joined = 'exchanges JOIN exchange_text AS t ON t.exchange_id = exchanges.id';
    // `|| ''`: an expression no index has, so these rows are read in id order and tested, not looked up.
    const tested = `((t.text || '') ILIKE ${p} OR (t.answer || '') ILIKE ${p})`;
    if (selective) return run([`t.exchange_id < ${below}`, `id < ${below}`, tested], joined);
    // The oldest of the newest `rows` indexed rows below `under` (NULL: none), and the matches from there.
    const floorOf = (under: string, rows: number): string =>
      `(SELECT min(exchange_id) FROM (SELECT exchange_id FROM exchange_text WHERE exchange_id < ${under} ORDER BY exchange_id DESC LIMIT ${rows}) AS w)`;
    const walk = (from: string, to: string): Promise<SummaryRow[]> =>
      run([`t.exchange_id >= ${from}`, `t.exchange_id < ${to}`, `id >= ${from}`, `id < ${to}`, tested], joined);
    let floor = floorOf(below, WALK_ROWS);
    const found = await walk(floor, below);
    if (found.length >= n) return found;
    // A word found in the first walk but too few times fills its page within `more` rows read on at that
    // rate (with a margin): up to MAX_WALK_ROWS, reading them in order is cheaper than rechecking every
    // row of its trigram bitmap, which for such a word is thousands.
    const more = found.length === 0 ? Infinity : Math.ceil((((n - found.length) * WALK_ROWS) / found.length) * 1.5);
    if (more <= MAX_WALK_ROWS) {
      const next = floorOf(floor, more);
      found.push(...(await walk(next, floor)));
      if (found.length >= n) return found;
      floor = next;
    }
    const rest = await run([`t.exchange_id < ${floor}`, `id < ${floor}`, `(t.text ILIKE ${p} OR t.answer ILIKE ${p})`], joined);
    return [...found, ...rest];
  }
}
