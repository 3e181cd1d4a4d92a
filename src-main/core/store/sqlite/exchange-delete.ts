// Deleting exchanges by hand (the UI's "delete the selection" or "delete what the filter shows"). The
// rows a filter picks are found by a read (a plan, read-plan.ts, run on a reading thread: a filter with
// a text search may walk the whole log), then deleted by id in one write transaction, so a delete that
// fails part-way deletes nothing and the write lock is held only for the deletes. A replay whose source
// goes keeps its row (the schema's source_id ... ON DELETE SET NULL), as with a prune.
import type { ExchangeDeletion } from '../../../shared/model';
import { checkDeletion, type DeleteOutcome } from '../rows/deletion';
import type { Db } from './db';
import { readOne, readValues, type ReadPlan } from './read-plan';
import { filterWhere } from './row-where';

/** What a deletion deletes: the ids it was given, or those its filter picks now. */
export type DeletionTarget = { ids: number[] } | { counted: DeleteOutcome };

/**
 * The rows to delete, read: with dryRun only their count and highest id; else their ids, in id order
 * (rows recorded after the read are newer and stay, as upToId keeps them for a confirmed delete).
 */
export function* deletionPlan(target: ExchangeDeletion, dryRun: boolean): ReadPlan<DeletionTarget> {
  const { ids, filter, upToId } = checkDeletion(target);
  if (ids !== null) return dryRun ? { counted: yield* countOf(['id IN (SELECT value FROM json_each(@ids))'], { ids: JSON.stringify(ids) }) } : { ids };
  const { where, params } = filterWhere(filter);
  if (upToId !== undefined) (where.push('id <= @upToId'), (params.upToId = upToId));
  if (dryRun) return { counted: yield* countOf(where, params) };
  return { ids: yield* readValues<number>(`SELECT id FROM exchanges ${whereText(where)} ORDER BY id`, params) };
}

function* countOf(where: readonly string[], params: Record<string, unknown>): ReadPlan<DeleteOutcome> {
  const found = yield* readOne<{ deleted: number; lastId: number | null }>(
    `SELECT count(*) AS deleted, max(id) AS lastId FROM exchanges ${whereText(where)}`,
    params,
  );
  return { deleted: found?.deleted ?? 0, lastId: found?.lastId ?? null };
}

const whereText = (where: readonly string[]): string => (where.length > 0 ? `WHERE ${where.join(' AND ')}` : '');

/** Deletes the rows found by deletionPlan; the caller recounts the store's running counts. */
export function deleteExchanges(db: Db, target: DeletionTarget): DeleteOutcome {
  if ('counted' in target) return target.counted;
  if (target.ids.length === 0) return { deleted: 0, lastId: null };
  return db
    .transaction(() => {
      const deleted = db
        .prepare(`DELETE FROM exchanges WHERE id IN (SELECT value FROM json_each(@ids)) RETURNING id`)
        .all({ ids: JSON.stringify(target.ids) }) as Array<{
        id: number;
      }>;
      return { deleted: deleted.length, lastId: deleted.reduce<number | null>((m, r) => (m === null || r.id > m ? r.id : m), null) };
    })
    .immediate();
}
