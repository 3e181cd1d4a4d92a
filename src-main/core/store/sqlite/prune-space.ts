// The end of a prune: free pages handed back to the disk (incremental auto-vacuum) and the write-ahead
// log checkpointed and cut to zero bytes, each in steps that hold the write lock no longer than a
// prune's batch, so a proxy capturing on the same database is not held back by them either.
import { performance } from 'node:perf_hooks';
import type { Db } from './db';
import { flushFileElsewhere } from './file-flush';
import { PRUNE_BATCH_MS } from './prune-batches';

/** Pages moved in the first step of an incremental vacuum; later steps are sized from its cost. */
const FIRST_VACUUM_PAGES = 64;
const MAX_VACUUM_PAGES = 4096;
/** The truncating checkpoint's waits (for the write lock, then for readers), and how often it is tried. */
const TRUNCATE_WAIT_MS = 20;
const TRUNCATE_TRIES = 10;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Hands every free page back to the file system (auto_vacuum = INCREMENTAL), a bounded step at a time. */
export async function vacuumIncrementally(db: Db): Promise<void> {
  const free = db.prepare('PRAGMA freelist_count').pluck();
  let pages = FIRST_VACUUM_PAGES;
  while ((free.get() as number) > 0) {
    const started = performance.now();
    db.pragma(`incremental_vacuum(${pages})`);
    const took = performance.now() - started;
    pages = Math.max(1, Math.min(MAX_VACUUM_PAGES, Math.floor((pages * PRUNE_BATCH_MS) / Math.max(took, 0.1))));
    await pause(Math.max(2, Math.ceil(took)));
  }
}

/**
 * Checkpoints the whole log and truncates it to zero bytes; false if another connection kept reading
 * it (or writing) through every try. The bulk is copied first without a lock (PASSIVE) and flushed to
 * the disk without one either, so the truncating checkpoint, which holds the write lock, only has the
 * last frames left to copy and to flush. Unflushed, the copied pages were flushed under the lock: a
 * proxy's captures waited 120 ms for it at the end of a prune of a million rows.
 */
export async function truncateWal(db: Db): Promise<boolean> {
  if (db.memory) return (db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0]?.busy === 0;
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  for (let tries = 0; tries < TRUNCATE_TRIES; tries++) {
    if (tries > 0) await pause(TRUNCATE_WAIT_MS);
    db.pragma('wal_checkpoint(PASSIVE)');
    await flushFileElsewhere(db.name);
    db.pragma(`busy_timeout = ${TRUNCATE_WAIT_MS}`);
    try {
      const [checkpoint] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
      if (checkpoint?.busy === 0) return true;
    } finally {
      db.pragma(`busy_timeout = ${timeout}`);
    }
  }
  return false;
}
