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
// found the moment it commits. A search reads indexed_upto once and hands it to each of its statements,
// so the indexer moving on meanwhile changes nothing: rows up to it were indexed before it was written.
//
// Newest first is where a trigram index does not help: its matches come as a bitmap, all of them, and a
// common word's bitmap is most of the log. So the newest WALK_ROWS indexed rows are read in order and
// tested first (a common word fills its page there), and only if they do not fill the page is the rest
// left to the planner, which takes the trigram index for a rare word. Under a deposit or user filter
// (a few rows by nature) the rows are read from that filter's index instead, each row's text tested.
import type pg from 'pg';
import type { ExchangePage } from '../../../shared/model';
import { toSummary, type SummaryRow } from '../exchange-rows';
import { pgText } from './pg-text';
import { hasAnswer } from './text-index';

/** Indexed rows read in id order, tested one by one, before the trigram index is asked for the rest. */
const WALK_ROWS = 1_000;

/** The search as an ILIKE pattern for a substring: `\`, `%` and `_` taken literally. */
export function ilikePattern(search: string): string {
  return `%${pgText(search).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Whether the row `row` (a table alias or name) holds the pattern `$p`, tested directly from its columns. */
export function directTextMatch(row: string, p: string): string {
  return `((wager_desk_request_text(${row}) COLLATE "C") ILIKE ${p}` + ` OR (${hasAnswer(row)} AND (wager_desk_answer_text(${row}) COLLATE "C") ILIKE ${p}))`;
}

/** The rows the index does not answer for in full: tested directly. */
const UNINDEXED_IDS = 'SELECT exchange_id FROM exchange_text_unanswered UNION ALL SELECT id FROM exchange_text_gaps';

/** The rows of `exchanges` holding `$p`, as one condition (for the walks that read in id order: follow, reverify, delete). */
export function textMatchCondition(p: string): string {
  return (
    `(id IN (SELECT exchange_id FROM exchange_text WHERE text ILIKE ${p} OR answer ILIKE ${p})` +
    ` OR ((id > (SELECT indexed_upto FROM exchange_text_state) OR id IN (${UNINDEXED_IDS})) AND ${directTextMatch('exchanges', p)}))`
  );
}

/** One statement of a page: the filters, then the clauses `build` makes (with parameters of their own), newest first. */
type Run = (build: (arg: (value: unknown) => string) => string[], from?: string) => Promise<SummaryRow[]>;

/** Filters on which the rest of a page is read from the filter's index: a deposit's or a user's rows are few. */
const SELECTIVE = /^(deposit_id|user_id) = \$\d+$/;

export class PgTextSearch {
  constructor(private readonly client: () => Promise<pg.Client>) {}

  /**
   * A page of the rows holding `search` under the filters `where` (numbered parameters `params`), below
   * `beforeId`, newest first. `select`: the summary's columns.
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
    const before = beforeId ?? Number.MAX_SAFE_INTEGER;
    const upTo = Number((await c.query<{ upto: string }>('SELECT indexed_upto::text AS upto FROM exchange_text_state')).rows[0]?.upto ?? 0);
    const base = [...params, ilikePattern(search)];
    const p = `$${base.length}`;
    const run: Run = async (build, from = 'exchanges') => {
      const values = [...base];
      const arg = (value: unknown): string => (values.push(value), `$${values.length}`);
      const sql = `SELECT ${select} FROM ${from} WHERE ${[...where, ...build(arg)].join(' AND ')} ORDER BY id DESC LIMIT ${n}`;
      return (await c.query<SummaryRow>(sql, values)).rows;
    };
    const below = Math.min(before, upTo + 1);
    // Rows the index does not hold (or holds without their answer), tested directly.
    const found = before > upTo + 1 ? await run((arg) => [`id > ${arg(upTo)}`, `id < ${arg(before)}`, directTextMatch('exchanges', p)]) : [];
    if (found.length < n) {
      const tail = found.length;
      // `= ANY(ARRAY(...))`: the list (a few ids) is read first and its rows looked up by key; as a join the
      // planner may walk the exchanges down to the list's oldest id, testing each row's text on the way.
      found.push(...(await run((arg) => [`id = ANY(ARRAY(${UNINDEXED_IDS}))`, `id < ${arg(below)}`, directTextMatch('exchanges', p)])));
      found.push(
        ...(await this.indexed(
          run,
          p,
          below,
          n - tail,
          where.some((w) => SELECTIVE.test(w)),
        )),
      );
    }
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
  private async indexed(run: Run, p: string, below: number, n: number, selective: boolean): Promise<SummaryRow[]> {
    const joined = 'exchanges JOIN exchange_text AS t ON t.exchange_id = exchanges.id';
    // `|| ''`: an expression no index has, so these rows are read in id order and tested, not looked up.
    const tested = `((t.text || '') ILIKE ${p} OR (t.answer || '') ILIKE ${p})`;
    if (selective) return run((arg) => [`t.exchange_id < ${arg(below)}`, `id < ${arg(below)}`, tested], joined);
    const c = await this.client();
    const walked = (
      await c.query<{ floor: number | null; rows: number }>(
        'SELECT min(exchange_id)::float8 AS floor, count(*)::int AS rows FROM (SELECT exchange_id FROM exchange_text WHERE exchange_id < $1 ORDER BY exchange_id DESC LIMIT $2) AS w',
        [below, WALK_ROWS],
      )
    ).rows[0]!;
    if (walked.floor === null) return [];
    const floor = walked.floor;
    const newest = await run((arg) => {
      const from = arg(floor);
      const to = arg(below);
      return [`t.exchange_id >= ${from}`, `t.exchange_id < ${to}`, `id >= ${from}`, `id < ${to}`, tested];
    }, joined);
    if (newest.length >= n || walked.rows < WALK_ROWS) return newest;
    const rest = await run((arg) => {
      const under = arg(floor);
      return [`t.exchange_id < ${under}`, `id < ${under}`, `(t.text ILIKE ${p} OR t.answer ILIKE ${p})`];
    }, joined);
    return [...newest, ...rest];
  }
}
