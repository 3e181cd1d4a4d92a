// What happens between two of a long series of short write transactions (a prune's batches, the
// deletion of a retired text index): the write lock is left free for at least as long as the last batch
// held it, so a writer waiting for it (a capture) gets in, and the write-ahead log is copied back now and
// then and kept short (wal-bound.ts). A writer in another process sees a pause of a few milliseconds per batch.
import { performance } from 'node:perf_hooks';
import type { Db } from './db';
import { WalBound } from './wal-bound';

/** The write lock is left free between two batches for at least this long, and as long as the last one held it. */
const MIN_PAUSE_MS = 2;
/**
 * How often the log is copied back between batches. Each copy ends with two fsyncs: after every batch
 * they took more time than the batches did; a proxy's own checkpointer copies on a similar period.
 */
const WAL_STEP_MS = 250;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class BatchPacer {
  private readonly wal: WalBound | null;
  private readonly autocheckpoint: number;
  private lastStep = performance.now();
  private stepLockMs = 0;

  constructor(private readonly db: Db) {
    this.autocheckpoint = db.pragma('wal_autocheckpoint', { simple: true }) as number;
    // The log is copied back between batches, not inside a batch's commit. Not when the automatic
    // checkpoint is off already: a proxy runs in this process (the app), its worker thread copies the
    // log, and a checkpoint here (its fsyncs) would stall the proxy's thread.
    this.wal = db.memory || this.autocheckpoint === 0 ? null : new WalBound(db);
    if (this.wal) db.pragma('wal_autocheckpoint = 0');
  }

  /** After a batch committed: copies the log back if it is time; the log's frames after, -1 when not copied. */
  async checkpoint(): Promise<number> {
    this.stepLockMs = 0;
    if (!this.wal || performance.now() - this.lastStep < WAL_STEP_MS) return -1;
    const step = await this.wal.step();
    this.lastStep = performance.now();
    this.stepLockMs = step.lockMs;
    return step.frames;
  }

  /** Leaves the write lock free as long as the last batch (and checkpoint) held it. */
  pause(holdMs: number): Promise<void> {
    return sleep(Math.max(MIN_PAUSE_MS, Math.ceil(Math.max(holdMs, this.stepLockMs))));
  }

  /** Puts the automatic checkpoint back. */
  close(): void {
    if (this.wal && this.db.open) this.db.pragma(`wal_autocheckpoint = ${this.autocheckpoint}`);
  }
}
