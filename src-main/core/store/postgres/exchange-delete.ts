// Deleting exchanges by hand over a team's PostgreSQL: the same checked deletion as SQLite's
// (rows/deletion.ts), in one statement, so a delete that fails part-way deletes nothing.
import type pg from 'pg';
import type { ExchangeDeletion } from '../../../shared/model';
import { checkDeletion, type DeleteOutcome } from '../rows/deletion';
import { pgFilterWhere } from './exchange-reads';

export async function pgDeleteExchanges(client: pg.Client, target: ExchangeDeletion, dryRun: boolean): Promise<DeleteOutcome> {
  const { ids, filter, upToId } = checkDeletion(target);
  if (ids !== null && ids.length === 0) return { deleted: 0, lastId: null };
  const { where, params } = ids !== null ? { where: ['id = ANY($1::bigint[])'], params: [ids] as unknown[] } : pgFilterWhere(filter);
  if (upToId !== undefined) (params.push(upToId), where.push(`id <= $${params.length}`));
  const condition = where.length > 0 ? where.join(' AND ') : 'true';
  const sql = dryRun
    ? `SELECT count(*)::float8 AS deleted, max(id)::float8 AS "lastId" FROM exchanges WHERE ${condition}`
    : `WITH gone AS (DELETE FROM exchanges WHERE ${condition} RETURNING id) SELECT count(*)::float8 AS deleted, max(id)::float8 AS "lastId" FROM gone`;
  const found = (await client.query<{ deleted: number; lastId: number | null }>(sql, params)).rows[0]!;
  return { deleted: found.deleted, lastId: found.lastId ?? null };
}
