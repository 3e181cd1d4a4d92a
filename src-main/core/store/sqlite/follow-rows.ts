// Following the log from any process: the rows recorded after an id, and the rows seen in flight looked
// at again. Both read by primary key (an index range, or a handful of ids), so a follower polling a few
// times a second costs the writer nothing it can feel: in WAL mode a reader never blocks the writer. A
// filter with a text search may still walk far past the cursor to fill a page: the read is a plan
// (read-plan.ts), run on a reading thread like the list.
import type { ExchangeSummary, FollowPage } from '../../../shared/model';
import { SUMMARY_SELECT, toSummary, type SummaryRow } from '../rows/exchange-rows';
import { readAll, readValue, type ReadPlan } from './read-plan';
import type { RowFilter } from '../rows/row-filter';
import { filterWhere } from './row-where';

/** Rows a follow call returns at most; a caller that gets `more` calls again at once. */
const FOLLOW_PAGE = 1000;

const MAX_ID_SQL = 'SELECT coalesce(max(id), 0) FROM exchanges';
const BY_IDS_SQL = `SELECT ${SUMMARY_SELECT}, completed_at FROM exchanges WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`;

type FollowRow = SummaryRow & { completed_at: string | null };

/** A row is complete once its answer (or the error in its place) was recorded. */
const isComplete = (r: FollowRow): boolean => r.completed_at !== null || r.res_status !== null || r.error !== null;

/**
 * What happened since the cursor: new rows (after `afterId`, matching the filter) that are complete,
 * those still in flight, and the ones given as pending that completed since (or are gone: dropped).
 */
export function* followPlan(filter: RowFilter, afterId: number | null, pendingIds: readonly number[]): ReadPlan<FollowPage> {
  if (afterId === null) return { completed: [], pending: [], afterId: yield* readValue<number>(MAX_ID_SQL), more: false };
  const completed: ExchangeSummary[] = [];
  const pending: number[] = [];
  if (pendingIds.length > 0) {
    for (const r of yield* readAll<FollowRow>(BY_IDS_SQL, [JSON.stringify(pendingIds)])) isComplete(r) ? completed.push(toSummary(r)) : pending.push(r.id);
  }
  const { where, params } = filterWhere(filter);
  const sql = `SELECT ${SUMMARY_SELECT}, completed_at FROM exchanges WHERE ${[...where, 'id > @after'].join(' AND ')} ORDER BY id LIMIT @limit`;
  const rows = yield* readAll<FollowRow>(sql, { ...params, after: afterId, limit: FOLLOW_PAGE + 1 });
  const more = rows.length > FOLLOW_PAGE;
  const fresh = rows.slice(0, FOLLOW_PAGE);
  for (const r of fresh) isComplete(r) ? completed.push(toSummary(r)) : pending.push(r.id);
  // The cursor moves only to a row read here: moving it to max(id) could skip a row committed in between.
  const last = fresh.length > 0 ? fresh[fresh.length - 1]!.id : afterId;
  completed.sort((x, y) => x.id - y.id);
  return { completed, pending, afterId: last, more };
}
