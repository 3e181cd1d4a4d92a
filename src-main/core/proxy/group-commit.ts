// Group commit: the rows of every request that finished arriving in one turn of the event loop are
// committed in ONE SQLite transaction, and only then answered. Each request still waits for its own
// row to be durable before any byte of its answer leaves; under load, ten requests share one commit
// instead of paying for ten (a commit rewrites every index page it touched, which dominates the cost
// of a capture). The wait is one setImmediate: the answer goes out in the same turn of the loop.
import type { Db } from '../store';

interface Pending {
  write: () => unknown;
  done: ((error: unknown, value: unknown) => void) | null;
}

export class GroupCommit {
  private pending: Pending[] = [];
  private scheduled = false;
  private closed = false;

  // Made once: db.transaction() builds four wrappers and defines their properties, a cost each call paid.
  private readonly all;
  private readonly one;

  constructor(db: Db) {
    this.all = db.transaction((batch: Pending[], values: unknown[]) => {
      for (let i = 0; i < batch.length; i++) values[i] = batch[i]!.write();
    });
    this.one = db.transaction((write: () => unknown) => write());
  }

  /** Queues a write; `done` runs once it is committed (error null), or with the error that stopped it. */
  write<T>(write: () => T, done?: (error: unknown, value: T | undefined) => void): void {
    if (this.closed) {
      done?.(new Error('The proxy is closing; nothing more is written.'), undefined);
      return;
    }
    this.pending.push({ write, done: (done as Pending['done']) ?? null });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Commits everything queued now (also run at close, so no recorded response is left behind). */
  flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    const values: unknown[] = new Array(batch.length);
    const errors: unknown[] = new Array(batch.length).fill(null);
    try {
      // IMMEDIATE: the write lock is taken first (waiting out busy_timeout), so a write that reads before
      // it writes (the sandbox's books) cannot meet another process's commit in between (SQLITE_BUSY).
      this.all.immediate(batch, values);
    } catch {
      // One bad write must not sink its neighbours: retry each on its own, so only the culprit fails.
      // Each retry is still a transaction: a write of several statements (the sandbox's) is all or nothing.
      for (let i = 0; i < batch.length; i++) {
        try {
          values[i] = this.one.immediate(batch[i]!.write);
        } catch (err) {
          errors[i] = err;
        }
      }
    }
    for (let i = 0; i < batch.length; i++) batch[i]!.done?.(errors[i], errors[i] === null ? values[i] : undefined);
  }

  close(): void {
    this.flush();
    this.closed = true;
  }
}
