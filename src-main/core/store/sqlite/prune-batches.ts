// The deletion of a prune, in write transactions short enough to fit between a proxy's captures.
//
// A batch is bounded by time, not by a row count guessed from the last one: inside its transaction it
// deletes small chunks of rows (in id order, from where the last chunk ended) and commits once its time
// is spent or PRUNE_BATCH_ROWS rows are gone. A chunk is sized from the cost per row measured so far, so
// a batch overshoots its time by at most about one row. Rows are not equally cheap: on a big log each
// delete touches a page of every index keyed by random ids (deposits, users), seldom in the cache.
// Between two batches the write lock is left free and the write-ahead log kept short (batch-pacer.ts).
import { performance } from 'node:perf_hooks';
import type { Db } from './db';
import { BatchPacer } from './batch-pacer';

/** Rows deleted per transaction, at most. */
export const PRUNE_BATCH_ROWS = 500;

/** How long one batch may hold the write lock, commit included. */
export const PRUNE_BATCH_MS = 10;
/**
 * The first chunk of a prune, before a row's cost is known, and the whole of its first batch: the
 * commit's cost per row is only known once one has committed, and a first batch filled to its time
 * with deletes alone (cold pages, hundreds of rows) left a commit of 100 ms and more behind it.
 * Chunks stay between 1 and MAX_CHUNK_ROWS.
 */
export const FIRST_CHUNK_ROWS = 4;
const MAX_CHUNK_ROWS = 64;

export interface PruneSelection {
  /** An SQL condition over exchanges' columns that selects the rows to delete. */
  where: string;
  params: Record<string, unknown>;
}

export interface PruneBatch {
  rows: number;
  /** How long the batch held the write lock (from BEGIN to the end of COMMIT), in ms. */
  holdMs: number;
  /** Frames in the write-ahead log after the checkpoint that followed the batch; -1: none followed it. */
  walFrames: number;
}

export interface BatchedDeletion {
  deleted: number;
  /** Kept rows whose source was deleted (the foreign key clears their link). */
  detached: number;
}

/**
 * Deletes every row `selection` picks, in short batches; resolves when none is left. A failure ends it
 * with the batches before it deleted for good, its message saying how many rows went. `inEachBatch`
 * runs first in every batch's transaction.
 */
export async function deleteInBatches(
  db: Db,
  selection: PruneSelection,
  onBatch?: (batch: PruneBatch) => void,
  inEachBatch?: () => void,
): Promise<BatchedDeletion> {
  const { where, params } = selection;
  const pick = db.prepare(`SELECT id FROM exchanges WHERE id > @after AND (${where}) ORDER BY id LIMIT @limit`).pluck();
  const countDetached = db
    .prepare(
      `SELECT count(*) FROM exchanges WHERE source_id > @after AND source_id <= @last AND NOT (${where})
         AND source_id IN (SELECT id FROM exchanges WHERE id > @after AND id <= @last AND (${where}))`,
    )
    .pluck();
  const remove = db.prepare(`DELETE FROM exchanges WHERE id > @after AND id <= @last AND (${where})`);

  // What one row costs (ms): its delete, measured over the last chunk, and its share of the commit,
  // which writes every page the deletes changed to the log (measured over the last batch). They size
  // the next chunk, and end the batch when the commit would take it past its time.
  let rowMs = 0;
  let commitRowMs = 0;
  let commitKnown = false;
  const batch = db.transaction((from: number) => {
    const began = performance.now();
    inEachBatch?.();
    const endBy = began + PRUNE_BATCH_MS;
    let after = from;
    let rows = 0;
    let detached = 0;
    let done = false;
    let chunk = rowMs > 0 ? chunkFor(PRUNE_BATCH_MS, rowMs + commitRowMs) : FIRST_CHUNK_ROWS;
    for (;;) {
      const limit = Math.min(chunk, PRUNE_BATCH_ROWS - rows);
      const chunkStart = performance.now();
      const ids = pick.all({ ...params, after, limit }) as number[];
      if (ids.length > 0) {
        const range = { ...params, after, last: ids[ids.length - 1]! };
        detached += countDetached.get(range) as number;
        rows += remove.run(range).changes;
        after = range.last;
      }
      const now = performance.now();
      if (ids.length > 0) rowMs = (now - chunkStart) / ids.length;
      if (ids.length < limit) {
        done = true;
        break;
      }
      const left = endBy - now - rows * commitRowMs;
      if (rows >= PRUNE_BATCH_ROWS || left <= rowMs || !commitKnown) break;
      chunk = chunkFor(left, rowMs + commitRowMs);
    }
    return { after, rows, detached, done, began, deletedAt: performance.now() };
  });

  let after = 0;
  let deleted = 0;
  let detached = 0;
  const pacer = new BatchPacer(db);
  try {
    for (;;) {
      let result: ReturnType<typeof batch>;
      try {
        result = batch.immediate(after);
      } catch (err) {
        if (err instanceof Error && deleted > 0)
          err.message += ` (${deleted} exchanges were deleted before this, in whole batches; run the prune again to go on)`;
        throw err;
      }
      const committedAt = performance.now();
      const holdMs = committedAt - result.began;
      if (result.rows > 0) {
        commitRowMs = (committedAt - result.deletedAt) / result.rows;
        commitKnown = true;
      }
      after = result.after;
      deleted += result.rows;
      detached += result.detached;
      const walFrames = await pacer.checkpoint();
      onBatch?.({ rows: result.rows, holdMs, walFrames });
      if (result.done) break;
      await pacer.pause(holdMs);
    }
  } finally {
    pacer.close();
  }
  return { deleted, detached };
}

/** Rows that fit in `ms` at `rowMs` a row, within 1 and MAX_CHUNK_ROWS. */
function chunkFor(ms: number, rowMs: number): number {
  return Math.max(1, Math.min(MAX_CHUNK_ROWS, Math.floor(ms / Math.max(rowMs, 0.001))));
}
