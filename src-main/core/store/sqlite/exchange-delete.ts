// Deleting exchanges by hand (the UI's "delete the selection" or "delete what the filter shows"): one
// write transaction, so a delete that fails part-way deletes nothing. A replay whose source goes keeps
// its row (the schema's source_id ... ON DELETE SET NULL), as with a prune.
import type { ExchangeDeletion } from '../../../shared/model';
import { checkDeletion, type DeleteOutcome } from '../rows/deletion';
import type { Db } from './db';
import { filterWhere } from './row-where';

/** Deletes the rows (or with dryRun counts them); the caller recounts the store's running counts. */
export function deleteExchanges(db: Db, target: ExchangeDeletion, dryRun: boolean): DeleteOutcome {
  const { ids, filter, upToId } = checkDeletion(target);
  const { where, params } =
    ids !== null
      ? { where: ['id IN (SELECT value FROM json_each(@ids))'], params: { ids: JSON.stringify(ids) } as Record<string, unknown> }
      : filterWhere(filter);
  if (upToId !== undefined) {
    where.push('id <= @upToId');
    params.upToId = upToId;
  }
  const condition = where.length > 0 ? where.join(' AND ') : '1';
  if (ids !== null && ids.length === 0) return { deleted: 0, lastId: null };
  if (dryRun) {
    const found = db.prepare(`SELECT count(*) AS deleted, max(id) AS lastId FROM exchanges WHERE ${condition}`).get(params) as DeleteOutcome;
    return { deleted: found.deleted, lastId: found.lastId ?? null };
  }
  return db
    .transaction(() => {
      const deleted = db.prepare(`DELETE FROM exchanges WHERE ${condition} RETURNING id`).all(params) as Array<{ id: number }>;
      return { deleted: deleted.length, lastId: deleted.reduce<number | null>((m, r) => (m === null || r.id > m ? r.id : m), null) };
    })
    .immediate();
}
