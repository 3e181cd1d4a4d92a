// Which captures a redelivery sends: inbound pay and results rows matching the filter, oldest first,
// less those already redelivered with a 2XX answer (unless `again`). One SQL statement per shape of
// filter, over the primary key and the indexed columns; the "already redelivered" test is a lookup in
// the source_id index per row, so a selection never reads a row twice. The statements are written in
// the SQL both engines share (store/contract/shared-sql.ts): the same selection from a laptop's log or a team's.
import type { RedeliveryFilter, RedeliverySelection, Verdict } from '../../shared/model';
import { VERDICTS } from '../../shared/model';
import { resolveTime } from '../../shared/redelivery-filter';
import { toSummary, SUMMARY_COLUMNS, type SummaryRow } from '../store/rows/exchange-rows';
import { rareValueTerms } from '../store/rows/rare-values';
import type { SharedSql } from '../store/contract/shared-sql';
import { DeskFailure } from '../result';

/** The most id ranges one filter takes (each is a term of the statement). */
export const MAX_ID_RANGES = 200;

const REDELIVERED_OK = `EXISTS (SELECT 1 FROM exchanges r WHERE r.source_id = e.id AND r.origin = 'redeliver' AND r.res_status BETWEEN 200 AND 299)`;

/** A filter as SQL: the WHERE terms and their parameters. */
interface Compiled {
  where: string[];
  params: Record<string, unknown>;
}

function bad(message: string): DeskFailure {
  return new DeskFailure('bad-input', message);
}

function time(label: string, text: unknown, now: Date): string {
  if (typeof text !== 'string') throw bad(`${label} must be a time.`);
  try {
    return resolveTime(text, now);
  } catch (err) {
    throw bad(`${label}: ${(err as Error).message}.`);
  }
}

/**
 * Checks the filter's meaning (the transports checked its shape) and turns it into SQL terms. `profile`:
 * whose captures (null: the unassigned ones, on a desk without profiles); never more than one profile's.
 */
export function compileFilter(filter: RedeliveryFilter, profile: string | null, now: Date = new Date()): Compiled {
  const where = [`e.direction = 'inbound'`];
  const params: Record<string, unknown> = {};
  if (profile === null) where.push('e.profile IS NULL');
  else (where.push('e.profile = @profile'), (params.profile = profile));
  if (filter.kind !== undefined) {
    if (filter.kind !== 'pay' && filter.kind !== 'results') throw bad(`A redelivery sends pay or results callbacks, not "${String(filter.kind)}".`);
    where.push('e.kind = @kind');
    params.kind = filter.kind;
  } else where.push(`e.kind IN ('pay', 'results')`);
  if (filter.verdict !== undefined) {
    if (!VERDICTS.includes(filter.verdict)) throw bad(`Unknown verdict "${String(filter.verdict)}"; use one of ${VERDICTS.join(', ')}.`);
    where.push('e.verdict = @verdict', ...rareValueTerms({ verdict: filter.verdict, depositId: filter.depositId, userId: filter.userId }, 'e.'));
    params.verdict = filter.verdict satisfies Verdict;
  }
  if (filter.depositId !== undefined) (where.push('e.deposit_id = @deposit'), (params.deposit = filter.depositId));
  if (filter.userId !== undefined) (where.push('e.user_id = @user'), (params.user = filter.userId));
  if (filter.since !== undefined) (where.push('e.at >= @since'), (params.since = time('since', filter.since, now)));
  if (filter.until !== undefined) (where.push('e.at < @until'), (params.until = time('until', filter.until, now)));
  if (filter.failed) where.push('(e.res_status IS NULL OR e.res_status NOT BETWEEN 200 AND 299)');
  if (filter.idRanges !== undefined) {
    const ranges = filter.idRanges;
    if (ranges.length === 0 || ranges.length > MAX_ID_RANGES) throw bad(`Give 1 to ${MAX_ID_RANGES} id ranges.`);
    const terms = ranges.map(([from, to], i) => {
      if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from) throw bad(`Id range ${from}-${to} is not a range of ids.`);
      params[`from${i}`] = from;
      params[`to${i}`] = to;
      return `e.id BETWEEN @from${i} AND @to${i}`;
    });
    where.push(`(${terms.join(' OR ')})`);
  }
  return { where, params };
}

/** At most this many ids of another profile's captures are named in a refusal. */
const FOREIGN_NAMED = 10;

/**
 * Ids asked for by number that are another profile's captures (or unassigned): a redelivery refuses
 * them rather than send them with this profile's secret and operator URL, or skip them unsaid.
 */
export async function refuseForeignIds(sql: SharedSql, filter: RedeliveryFilter, profile: string | null): Promise<void> {
  if (!filter.idRanges || filter.idRanges.length === 0) return;
  const { where, params } = compileFilter({ idRanges: filter.idRanges }, profile);
  // The same id terms, with the profile term turned around.
  const others = [profile === null ? 'e.profile IS NOT NULL' : 'e.profile IS DISTINCT FROM @profile', ...where.slice(3)];
  const rows = await sql.all<{ id: number; profile: string | null }>(
    `SELECT e.id, e.profile FROM exchanges e WHERE e.direction = 'inbound' AND e.kind IN ('pay', 'results') AND ${others.join(' AND ')} ORDER BY e.id LIMIT ${FOREIGN_NAMED + 1}`,
    params,
  );
  if (rows.length === 0) return;
  const named = rows
    .slice(0, FOREIGN_NAMED)
    .map((r) => `#${r.id} (${r.profile === null ? 'unassigned' : `profile "${r.profile}"`})`)
    .join(', ');
  const whose = profile === null ? 'the unassigned captures' : `profile "${profile}"`;
  throw new DeskFailure(
    'bad-input',
    `Not ${whose}'s: ${named}${rows.length > FOREIGN_NAMED ? ' and more' : ''}. A redelivery sends one profile's captures with that profile's secret and operator URL: redeliver them with --profile naming theirs.`,
  );
}

export class RedeliverySelector {
  constructor(private readonly sql: SharedSql) {}

  /** The newest id now: a run sends nothing captured after it started. */
  async maxId(): Promise<number> {
    const [row] = await this.sql.all<{ id: number }>('SELECT coalesce(max(id), 0) AS id FROM exchanges');
    return row?.id ?? 0;
  }

  /**
   * How many captures the run would send, how many match but were already redelivered, and the first
   * matching id: one pass over the candidates, after which a page starts at that id instead of scanning
   * up to it again.
   */
  async count(c: Compiled, again: boolean, upTo: number): Promise<{ count: number; skipped: number; firstId: number | null }> {
    const where = [...c.where, 'e.id <= @upTo'].join(' AND ');
    const done = again ? '0' : `count(*) FILTER (WHERE ${REDELIVERED_OK})`;
    const [row] = await this.sql.all<{ n: number; done: number; first: number | null }>(
      `SELECT count(*) AS n, ${done} AS done, min(e.id) AS first FROM exchanges e WHERE ${where}`,
      { ...c.params, upTo },
    );
    return { count: row!.n - row!.done, skipped: row!.done, firstId: row!.first };
  }

  /** The next captures to send after `afterId`, oldest first. */
  page(c: Compiled, again: boolean, afterId: number, upTo: number, limit: number): Promise<SummaryRow[]> {
    const where = [...c.where, 'e.id > @afterId', 'e.id <= @upTo', ...(again ? [] : [`NOT ${REDELIVERED_OK}`])].join(' AND ');
    const columns = SUMMARY_COLUMNS.split(', ')
      .map((col) => `e.${col}`)
      .join(', ');
    // The whole findings where the list reads only those that may hold a fault note: a summary takes either.
    return this.sql.all<SummaryRow>(`SELECT ${columns}, e.findings AS fault_findings FROM exchanges e WHERE ${where} ORDER BY e.id LIMIT @limit`, {
      ...c.params,
      afterId,
      upTo,
      limit,
    });
  }
}

/** The count and a preview page of what a redelivery with this filter would send now. */
export async function selectRedelivery(
  sql: SharedSql,
  filter: RedeliveryFilter,
  profile: string | null,
  options: { limit?: number; afterId?: number } = {},
): Promise<RedeliverySelection> {
  const selector = new RedeliverySelector(sql);
  const compiled = compileFilter(filter ?? {}, profile);
  await refuseForeignIds(sql, filter ?? {}, profile);
  const again = filter?.again === true;
  const upTo = await selector.maxId();
  const { count, skipped, firstId } = await selector.count(compiled, again, upTo);
  const limit = Math.max(0, Math.min(1000, Math.floor(options.limit ?? 50)));
  const afterId = Math.max(options.afterId ?? 0, (firstId ?? upTo + 1) - 1);
  const rows = limit > 0 && count > 0 ? await selector.page(compiled, again, afterId, upTo, limit + 1) : [];
  const items = rows.slice(0, limit).map((r) => toSummary(r));
  return { count, skipped, items, nextAfterId: rows.length > limit ? items[items.length - 1]!.id : null };
}
