// Following the log from any process: the rows recorded after an id, and the rows seen in flight looked
// at again. Both read by primary key (an index range, or a handful of ids), so a follower polling a few
// times a second costs the writer nothing it can feel: in WAL mode a reader never blocks the writer.
import type { ExchangeSummary, FollowPage } from '../../../shared/model';
import { SUMMARY_SELECT, toSummary, type SummaryRow } from '../rows/exchange-rows';
import type { Db } from './open';
import type { RowFilter } from '../rows/row-filter';
import { filterWhere } from './row-where';

/** Rows a follow call returns at most; a caller that gets `more` calls again at once. */
const FOLLOW_PAGE = 1000;

type FollowRow = SummaryRow & { completed_at: string | null };

/** A row is complete once its answer (or the error in its place) was recorded. */
const isComplete = (r: FollowRow): boolean => r.completed_at !== null || r.res_status !== null || r.error !== null;

export class FollowRows {
  private readonly maxIdStmt;
  private readonly byIdsStmt;
  private readonly newCache = new Map<string, ReturnType<Db['prepare']>>();

  constructor(private readonly db: Db) {
    this.maxIdStmt = db.prepare('SELECT coalesce(max(id), 0) FROM exchanges').pluck();
    this.byIdsStmt = db.prepare(`SELECT ${SUMMARY_SELECT}, completed_at FROM exchanges WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`);
  }

  /**
   * What happened since the cursor: new rows (after `afterId`, matching the filter) that are complete,
   * those still in flight, and the ones given as pending that completed since (or are gone: dropped).
   */
  follow(filter: RowFilter, afterId: number | null, pendingIds: readonly number[]): FollowPage {
    if (afterId === null) return { completed: [], pending: [], afterId: this.maxIdStmt.get() as number, more: false };
    const completed: ExchangeSummary[] = [];
    const pending: number[] = [];
    if (pendingIds.length > 0) {
      for (const r of this.byIdsStmt.all(JSON.stringify(pendingIds)) as FollowRow[]) isComplete(r) ? completed.push(toSummary(r)) : pending.push(r.id);
    }
    const { where, params } = filterWhere(filter);
    const sql = `SELECT ${SUMMARY_SELECT}, completed_at FROM exchanges WHERE ${[...where, 'id > @after'].join(' AND ')} ORDER BY id LIMIT @limit`;
    let stmt = this.newCache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.newCache.set(sql, stmt);
    }
    const rows = stmt.all({ ...params, after: afterId, limit: FOLLOW_PAGE + 1 }) as FollowRow[];
    const more = rows.length > FOLLOW_PAGE;
    const fresh = rows.slice(0, FOLLOW_PAGE);
    for (const r of fresh) isComplete(r) ? completed.push(toSummary(r)) : pending.push(r.id);
    // The cursor moves only to a row read here: moving it to max(id) could skip a row committed in between.
    const last = fresh.length > 0 ? fresh[fresh.length - 1]!.id : afterId;
    completed.sort((x, y) => x.id - y.id);
    return { completed, pending, afterId: last, more };
  }
}
