// Deleting exchanges by hand (the UI's "delete the selection" or "delete what the filter shows"): one
// write transaction, so a delete that fails part-way deletes nothing. A replay whose source goes keeps
// its row (the schema's source_id ... ON DELETE SET NULL), as with a prune.
import type { ExchangeDeletion, ExchangeQuery } from '../../shared/model';
import { DeskFailure } from '../result';
import type { Db } from './open';

/** The most ids one delete takes (the UI's selection is a page or a few). */
const MAX_IDS = 100_000;

/** The filter as SQL, the same conditions as the exchange list applies (search by prefix on the indexes). */
function filterCondition(q: ExchangeQuery): { where: string; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  const direction = q.direction ?? 'inbound';
  if (direction !== 'all') (where.push('direction = @direction'), (params.direction = direction));
  if (q.kind) (where.push('kind = @kind'), (params.kind = q.kind));
  if (q.result) (where.push('result = @result'), (params.result = q.result));
  if (q.verdict) (where.push('verdict = @verdict'), (params.verdict = q.verdict));
  if (q.depositId) (where.push('deposit_id = @deposit'), (params.deposit = q.depositId));
  if (q.userId) (where.push('user_id = @user'), (params.user = q.userId));
  if (q.search) {
    params.s = q.search;
    params.sEnd = `${q.search}\u{10FFFF}`;
    where.push(
      'id IN (SELECT id FROM exchanges WHERE deposit_id >= @s AND deposit_id < @sEnd UNION SELECT id FROM exchanges WHERE user_id >= @s AND user_id < @sEnd)',
    );
  }
  return { where: where.length > 0 ? where.join(' AND ') : '1', params };
}

function idsOf(target: ExchangeDeletion): number[] | null {
  if (!('ids' in target)) return null;
  const ids = target.ids;
  if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id) && id > 0))
    throw new DeskFailure('bad-input', 'The exchanges to delete are given by their ids (whole numbers).');
  if (ids.length > MAX_IDS) throw new DeskFailure('bad-input', `At most ${MAX_IDS} ids at once; delete by filter instead.`);
  return ids;
}

/** Deletes the rows (or with dryRun counts them); the caller recounts the store's running counts. */
export function deleteExchanges(db: Db, target: ExchangeDeletion, dryRun: boolean): number {
  if (typeof target !== 'object' || target === null || (!('ids' in target) && !('filter' in target))) {
    throw new DeskFailure('bad-input', 'Say which exchanges to delete: { ids } or { filter }.');
  }
  const ids = idsOf(target);
  if (ids !== null) {
    if (ids.length === 0) return 0;
    const run = (): number => {
      const count = db.prepare('SELECT count(*) FROM exchanges WHERE id IN (SELECT value FROM json_each(?))').pluck();
      const del = db.prepare('DELETE FROM exchanges WHERE id IN (SELECT value FROM json_each(?))');
      const list = JSON.stringify(ids);
      return dryRun ? (count.get(list) as number) : del.run(list).changes;
    };
    return dryRun ? run() : db.transaction(run).immediate();
  }
  const { where, params } = filterCondition((target as { filter: ExchangeQuery }).filter ?? {});
  if (dryRun) return db.prepare(`SELECT count(*) FROM exchanges WHERE ${where}`).pluck().get(params) as number;
  return db.transaction(() => db.prepare(`DELETE FROM exchanges WHERE ${where}`).run(params).changes).immediate();
}
