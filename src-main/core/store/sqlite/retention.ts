// Retention: prunes old exchanges by age or by count, and keeps the database compact.
//
// Deletion goes in short write transactions bounded by time (prune-batches.ts) with the write lock left
// free between them, so a proxy capturing on the same database (the app, in this process, or `serve`
// in another) gets in between two batches: a capture waits for at most one batch, a few milliseconds.
// A prune that fails part-way (a full disk, a lock it could not get) leaves whole batches deleted, and
// its error says how many rows went. The rows to delete are fixed at the start (the age cut, the id of
// the newest row beyond --keep): rows recorded meanwhile are newer and stay. A replay whose source row is pruned keeps its own row:
// the schema's foreign key (source_id ... ON DELETE SET NULL) clears the link, and nothing dangles.
//
// Space: SQLite keeps freed pages in the file for reuse by new rows, so a pruned database stops growing
// but does not shrink. `vacuum` rebuilds the file (and switches it to incremental auto-vacuum, so later
// prunes hand their free pages back on their own, in steps as short as the batches). The WAL is
// checkpointed and truncated last, so the pruned bodies are not left behind in it either.
import { statSync } from 'node:fs';
import type { PruneOptions as SharedPruneOptions, PruneReport } from '../../../shared/model';
import { DeskFailure } from '../../result';
import type { Db } from './open';
import { readOne, readValue, type ReadPlan } from './read-plan';
import { deleteInBatches, type PruneBatch } from './prune-batches';
import { truncateWal, vacuumIncrementally } from './prune-space';
import { withTextIndexAside } from './text-index-aside';
import { beginRetiring, dropRetired, retireTextIndex, retiring, shouldRetire } from './text-index-retire';

export type { PruneBatch } from './prune-batches';

export type { PruneReport } from '../../../shared/model';

export interface PruneOptions extends SharedPruneOptions {
  /** The clock for olderThanDays (tests). */
  now?: Date;
  /** Told of every batch once it is committed (tests, diagnosis). */
  onBatch?: (batch: PruneBatch) => void;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function fileBytes(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function storedBytes(db: Db): number {
  return db.memory ? 0 : fileBytes(db.name) + fileBytes(`${db.name}-wal`);
}

function checkOptions(options: PruneOptions): void {
  const { olderThanDays, keep } = options;
  if (olderThanDays !== undefined && (typeof olderThanDays !== 'number' || !Number.isFinite(olderThanDays) || olderThanDays < 0)) {
    throw new DeskFailure('bad-input', `The age limit must be a number of days of 0 or more; got ${String(olderThanDays)}.`);
  }
  if (keep !== undefined && (typeof keep !== 'number' || !Number.isInteger(keep) || keep < 0)) {
    throw new DeskFailure('bad-input', `The number of exchanges to keep must be a whole number of 0 or more; got ${String(keep)}.`);
  }
}

/** The rows a prune deletes: their condition, how many there are and how many the log holds. */
export interface PruneTarget {
  where: string;
  params: Record<string, unknown>;
  deleting: number;
  total: number;
}

/**
 * The rows to delete, read (a plan, read-plan.ts: by age it is a pass over the log, so it runs on a
 * reading thread, not on the connection the proxy's captures commit on); null when nothing is asked. By
 * count, the highest id outside the newest N is fixed now; by age, the newest row old enough is, and
 * the batches stop there (their pick would otherwise walk every younger row, in a write transaction,
 * to find none). Rows recorded during the prune are newer and stay either way.
 */
export function* pruneSelectionPlan(options: PruneOptions, cutoff: string | null): ReadPlan<PruneTarget | null> {
  if (options.keep === undefined && cutoff === null) return null;
  const total = yield* readValue<number>('SELECT count(*) FROM exchanges');
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  let edge: number | null = null;
  if (options.keep !== undefined) {
    edge = (yield* readValue<number | undefined>('SELECT id FROM exchanges ORDER BY id DESC LIMIT 1 OFFSET ?', [options.keep])) ?? null;
    if (edge !== null) (parts.push('id <= @edge'), (params.edge = edge));
  }
  if (cutoff !== null) {
    // julianday() compares instants whatever the offset notation; a time it cannot parse keeps its row.
    const old = yield* readOne<{ n: number; newest: number | null }>(
      'SELECT count(*) AS n, max(id) AS newest FROM exchanges WHERE julianday(at) < julianday(?)',
      [cutoff],
    );
    if (old && old.newest !== null) {
      parts.push('(julianday(at) < julianday(@cutoff) AND id <= @oldest)');
      params.cutoff = cutoff;
      params.oldest = old.newest;
    }
    // By age alone, or by age and a count that deletes nothing: the old rows are the ones to go.
    if (edge === null) return { where: parts.length > 0 ? parts.join(' OR ') : '0', params, deleting: old?.n ?? 0, total };
  }
  if (parts.length === 0) return { where: '0', params, deleting: 0, total };
  const where = parts.join(' OR ');
  // By count (with or without an age): from the count, or counted when an age adds rows past the edge.
  const deleting = cutoff === null ? Math.max(0, total - options.keep!) : yield* readValue<number>(`SELECT count(*) FROM exchanges WHERE ${where}`, params);
  return { where, params, deleting, total };
}

/** Runs a read of the log off the proxy's thread (Store.read). */
export type ReadRunner = <T>(plan: ReadPlan<T>) => Promise<T>;

/**
 * Deletes old exchanges (by age, by count, or both: a row goes when either says so) and compacts. The
 * selection and the counts are read through `read`; the deletes are this connection's writes.
 */
export async function pruneExchanges(db: Db, read: ReadRunner, options: PruneOptions = {}): Promise<PruneReport> {
  checkOptions(options);
  const bytesBefore = storedBytes(db);
  const cutoff = options.olderThanDays !== undefined ? new Date((options.now ?? new Date()).getTime() - options.olderThanDays * DAY_MS).toISOString() : null;
  let deleted = 0;
  let detached = 0;
  const cond = await read(pruneSelectionPlan(options, cutoff));
  // Deleting nearly every row, the prune replaces the text index instead of deleting from it
  // (text-index-retire.ts); so does any prune after one that was cut short while it deleted, and one
  // cut short while it dropped the old index leaves the rest of it to the next.
  let retire = retiring(db);
  if (cond !== null && !retire) {
    retire = shouldRetire(cond.deleting, cond.total);
    if (retire) beginRetiring(db);
  }
  if (cond !== null) ({ deleted, detached } = await withTextIndexAside(db, (renew) => deleteInBatches(db, cond, options.onBatch, renew)));
  await (retire ? retireTextIndex(db) : dropRetired(db));

  let vacuumed = false;
  if (options.vacuum) {
    if (db.inTransaction) throw new DeskFailure('io-error', 'The database cannot be compacted inside a transaction.');
    // Incremental auto-vacuum takes effect at the rebuild; from then on every prune returns its pages.
    db.pragma('auto_vacuum = INCREMENTAL');
    try {
      // Deletes leave tombstones in the text index (migration 013); optimizing rewrites it without the
      // deleted rows' postings, so the rebuilt file holds none of a pruned row's text.
      db.exec("INSERT INTO exchange_text (exchange_text) VALUES ('optimize')");
      db.exec('VACUUM');
    } catch (err) {
      throw new DeskFailure(
        'io-error',
        `The database could not be compacted (${(err as Error).message}); close the app and any running \`wager-desk serve\` on this data directory, then try again.`,
      );
    }
    vacuumed = true;
  } else if (deleted > 0 && db.pragma('auto_vacuum', { simple: true }) === 2) {
    await vacuumIncrementally(db);
  }

  const truncated = await truncateWal(db);
  return {
    deleted,
    remaining: await read(readValue<number>('SELECT count(*) FROM exchanges')),
    detached,
    cutoff,
    vacuumed,
    walTruncated: truncated && fileBytes(`${db.name}-wal`) === 0,
    bytesBefore,
    bytesAfter: storedBytes(db),
    freePages: db.pragma('freelist_count', { simple: true }) as number,
  };
}
