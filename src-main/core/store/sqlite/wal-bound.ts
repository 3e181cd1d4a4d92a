// Keeps the write-ahead log short while a long series of write transactions (a prune's batches) runs
// beside other writers (the proxy's captures, from another process or this one).
//
// The log only starts over when a writer begins while every frame in it has been copied back to the
// database. PASSIVE checkpoints copy frames without taking any lock, but with two writers taking turns
// a frame written since the copy is almost always there when the next writer begins, so the log never
// starts over: it grew to 2.4 GB during a prune of a million rows, and every read walked a larger index.
// So, between two batches: a PASSIVE checkpoint copies what is there (no lock; the bulk of the work),
// and once the log has grown past a bound, the copied pages are flushed to the disk (no lock either),
// and a RESTART checkpoint takes the write lock for the few frames written since, waits for the readers
// to leave the log, and lets the next writer start it over. Its waits are capped at a few milliseconds
// (the busy timeout, only for that statement): a reader that stays longer makes it give up until the
// next time, instead of holding writers back.
import type { Db } from './db';
import { flushFileElsewhere } from './file-flush';

/** Frames (pages) the log may hold before it is made to start over: 32 MiB of 4 KiB pages. */
export const WAL_RESTART_FRAMES = 8192;

/** How long the RESTART checkpoint may wait for the write lock, and then for readers, each time. */
const RESTART_WAIT_MS = 20;

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

export interface WalStep {
  /** Frames in the log after the step (0: it was started over). */
  frames: number;
  /** How long the step held the write lock (only a RESTART does), in ms. */
  lockMs: number;
}

export class WalBound {
  private readonly passive;
  private readonly restart;
  private readonly shortWait;
  private readonly normalWait;

  constructor(
    private readonly db: Db,
    private readonly restartFrames = WAL_RESTART_FRAMES,
  ) {
    const timeout = db.pragma('busy_timeout', { simple: true }) as number;
    this.passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
    this.restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
    // Applied when parsed (SQLite runs PRAGMA busy_timeout at prepare time): kept as text, run each time.
    this.shortWait = `PRAGMA busy_timeout = ${RESTART_WAIT_MS}`;
    this.normalWait = `PRAGMA busy_timeout = ${timeout}`;
  }

  /** Between two write transactions: copies the log back, and starts it over once it is past the bound. */
  async step(): Promise<WalStep> {
    const copied = this.passive.get() as CheckpointRow;
    if (copied.log < this.restartFrames) return { frames: copied.log, lockMs: 0 };
    // A PASSIVE checkpoint beside a writer never reaches the end of the log, and only one that does
    // fsyncs the database file: the RESTART would flush every page copied since, holding the write lock
    // (60 to 170 ms on a loaded machine, measured). Flushed first, without the lock, they leave it little.
    await flushFileElsewhere(this.db.name);
    this.db.exec(this.shortWait);
    const started = performance.now();
    try {
      const restarted = this.restart.get() as CheckpointRow;
      return { frames: restarted.busy === 0 ? 0 : restarted.log, lockMs: performance.now() - started };
    } finally {
      this.db.exec(this.normalWait);
    }
  }
}
