// Retention over a team's PostgreSQL: the rows to delete are fixed at the start (the age cut, the id of
// the newest row beyond --keep), then deleted in batches of BATCH rows, each its own short transaction,
// so that the proxies writing the log meanwhile never wait long on a lock. A replay whose source goes
// keeps its own row: the schema's foreign key (ON DELETE SET NULL) clears the link.
//
// Ages compare as text: the desk writes every capture's time in UTC (`toISOString`), whose text order is
// time order. (An imported row whose time carries another offset may be off by that offset.)
import type pg from 'pg';
import type { PruneOptions, PruneReport } from '../../../shared/model';
import { DeskFailure } from '../../result';

const BATCH = 1_000;
const DAY_MS = 24 * 60 * 60 * 1000;

const SIZE_SQL = "SELECT (pg_total_relation_size('exchanges') + pg_total_relation_size('exchange_text'))::float8 AS bytes";

function checkOptions({ olderThanDays, keep }: PruneOptions): void {
  if (olderThanDays !== undefined && (typeof olderThanDays !== 'number' || !Number.isFinite(olderThanDays) || olderThanDays < 0)) {
    throw new DeskFailure('bad-input', `The age limit must be a number of days of 0 or more; got ${String(olderThanDays)}.`);
  }
  if (keep !== undefined && (typeof keep !== 'number' || !Number.isInteger(keep) || keep < 0)) {
    throw new DeskFailure('bad-input', `The number of exchanges to keep must be a whole number of 0 or more; got ${String(keep)}.`);
  }
}

export async function prunePostgres(client: pg.Client, options: PruneOptions & { now?: Date } = {}): Promise<PruneReport> {
  checkOptions(options);
  const bytesBefore = (await client.query<{ bytes: number }>(SIZE_SQL)).rows[0]!.bytes;
  const cutoff = options.olderThanDays !== undefined ? new Date((options.now ?? new Date()).getTime() - options.olderThanDays * DAY_MS).toISOString() : null;
  const parts: string[] = [];
  const params: unknown[] = [];
  if (cutoff !== null) (params.push(cutoff), parts.push(`at < $${params.length}`));
  if (options.keep !== undefined) {
    const edge = await client.query<{ id: number }>('SELECT id::float8 AS id FROM exchanges ORDER BY id DESC OFFSET $1 LIMIT 1', [options.keep]);
    if (edge.rows[0]) (params.push(edge.rows[0].id), parts.push(`id <= $${params.length}`));
  }
  let deleted = 0;
  let detached = 0;
  if (parts.length > 0) {
    // Rows recorded during the prune are newer than the highest id now: they stay, whatever their time.
    const top = (await client.query<{ id: number }>('SELECT coalesce(max(id), 0)::float8 AS id FROM exchanges')).rows[0]!.id;
    params.push(top, BATCH);
    const [topParam, batchParam] = [`$${params.length - 1}`, `$${params.length}`];
    const sql = `WITH doomed AS (SELECT id FROM exchanges WHERE id <= ${topParam} AND (${parts.join(' OR ')}) ORDER BY id LIMIT ${batchParam}),
      kept AS (SELECT count(*) AS n FROM exchanges WHERE source_id IN (SELECT id FROM doomed) AND id NOT IN (SELECT id FROM doomed)),
      gone AS (DELETE FROM exchanges WHERE id IN (SELECT id FROM doomed) RETURNING id)
      SELECT (SELECT count(*) FROM gone)::int AS deleted, (SELECT n FROM kept)::int AS detached`;
    for (;;) {
      const r = (await client.query<{ deleted: number; detached: number }>(sql, params)).rows[0]!;
      deleted += r.deleted;
      detached += r.detached;
      if (r.deleted < BATCH) break;
    }
  }
  // VACUUM makes the space reusable by new rows (a FULL rewrite would lock the proxies out: left to an operator).
  if (options.vacuum) await client.query('VACUUM (ANALYZE) exchanges');
  const remaining = (await client.query<{ n: number }>('SELECT count(*)::float8 AS n FROM exchanges')).rows[0]!.n;
  const bytesAfter = (await client.query<{ bytes: number }>(SIZE_SQL)).rows[0]!.bytes;
  return { deleted, remaining, detached, cutoff, vacuumed: options.vacuum === true, walTruncated: false, bytesBefore, bytesAfter, freePages: 0 };
}
