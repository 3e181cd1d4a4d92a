// Group commit: the rows of every request that finished arriving in one turn of the event loop are
// committed in ONE SQLite transaction, and only then answered. Each request still waits for its own
// row to be durable before any byte of its answer leaves; under load, ten requests share one commit
// instead of paying for ten (a commit rewrites every index page it touched, which dominates the cost
// of a capture). The wait is one setImmediate: the answer goes out in the same turn of the loop.
//
// Another process may hold the write lock (a prune's batch, a CLI command). The lock is then NOT waited
// for in SQLite's busy handler, which sleeps on this thread and would stall every connection of the
// proxy: the batch tries again on a short timer while the loop keeps serving, and requests that finish
// arriving meanwhile join it. A batch that cannot get the lock within the bound fails as any failed
// write does (its requests are answered 503: nothing is acknowledged without its row).
import { performance } from 'node:perf_hooks';
import type { Db } from '.';
import { BUSY_TIMEOUT_MS } from './open';
import { lockWaitError, WriteLock } from './write-lock';
import type { CaptureTx, CaptureWriter, WriteDone } from '../contract/capture-writer';

interface Pending {
  write: (tx: CaptureTx) => unknown;
  done: ((error: unknown, value: unknown) => void) | null;
}

export interface GroupCommitOptions {
  /** How long a batch waits for another process's write lock before its writes fail. */
  lockWaitMs?: number;
}

/** The wait before the n-th retry for the lock (from 0): 1 ms at first, then 2 ms. */
const retryDelayMs = (retries: number): number => (retries < 4 ? 1 : 2);

/** The SQLite engine's capture writer. */
export class GroupCommit implements CaptureWriter {
  private pending: Pending[] = [];
  private scheduled = false;
  private closed = false;
  /** Set while a batch waits for the lock: when it first found the lock taken, and its next try. */
  private waitingSince: number | null = null;
  private retries = 0;
  private retry: NodeJS.Timeout | null = null;

  /** The last try of the batch failed: the next runs each write in a savepoint of its own. */
  private isolate = false;

  private readonly lock: WriteLock;
  private readonly lockWaitMs: number;
  // Made once: db.transaction() builds four wrappers and defines their properties, a cost each call paid.
  // Called inside the transaction the lock began, it runs as a savepoint.
  private readonly one;

  constructor(
    private readonly db: Db,
    /** What every write works on (the desk's exchange store and sandbox, over this same connection). */
    private readonly tx: CaptureTx,
    options: GroupCommitOptions = {},
  ) {
    this.lock = new WriteLock(db);
    this.lockWaitMs = options.lockWaitMs ?? BUSY_TIMEOUT_MS;
    this.one = db.transaction((write: (tx: CaptureTx) => unknown) => write(this.tx));
  }

  /** Queues a write; `done` runs once it is committed (error null), or with the error that stopped it. */
  write<T>(write: (tx: CaptureTx) => T, done?: WriteDone<T>): void {
    if (this.closed) {
      done?.(new Error('The proxy is closing; nothing more is written.'), undefined);
      return;
    }
    this.pending.push({ write, done: (done as Pending['done']) ?? null });
    if (!this.scheduled && this.retry === null) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Commits everything queued now if the write lock is free; if not, tries again shortly (never blocking). */
  flush(): void {
    this.scheduled = false;
    this.retry = null;
    if (this.pending.length === 0) return;
    if (!this.db.open) return this.failBatch(new Error('The database was closed before these writes could be committed.'));
    // IMMEDIATE: the write lock is taken first, so a write that reads before it writes (the sandbox's
    // books) cannot meet another process's commit in between.
    if (this.lock.tryBegin()) {
      this.waitingSince = null;
      this.retries = 0;
      this.commitBatch(false);
      return;
    }
    const now = performance.now();
    this.waitingSince ??= now;
    if (now - this.waitingSince >= this.lockWaitMs) {
      const error = lockWaitError(this.db.name, now - this.waitingSince);
      this.waitingSince = null;
      this.retries = 0;
      this.isolate = false;
      this.failBatch(error);
      return;
    }
    this.retry = setTimeout(() => this.flush(), retryDelayMs(this.retries++));
  }

  /** Commits what is queued, waiting for the lock as long as the busy timeout allows (the last flush at close). */
  private flushWaiting(): void {
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    this.scheduled = false;
    this.waitingSince = null;
    if (this.pending.length === 0) return;
    try {
      this.lock.beginWaiting();
    } catch (err) {
      this.isolate = false;
      this.failBatch(err);
      return;
    }
    this.commitBatch(true);
  }

  /** Runs and commits the queued writes in the transaction just begun, then tells each its outcome. */
  private commitBatch(waiting: boolean): void {
    const batch = this.pending;
    this.pending = [];
    const values: unknown[] = new Array(batch.length);
    const errors: unknown[] = new Array(batch.length).fill(null);
    const isolated = this.isolate;
    try {
      if (isolated) this.runEachAlone(batch, values, errors);
      else for (let i = 0; i < batch.length; i++) values[i] = batch[i]!.write(this.tx);
      this.lock.commit();
    } catch (err) {
      this.lock.rollback();
      if (!isolated) {
        // One bad write must not sink its neighbours: the batch again, each write in a savepoint of its
        // own, so only the culprit fails (the common case, no failure, pays for no savepoint).
        this.isolate = true;
        this.pending = batch.concat(this.pending);
        if (waiting) this.flushWaiting();
        else this.flush();
        return;
      }
      errors.fill(err);
    }
    this.isolate = false;
    for (let i = 0; i < batch.length; i++) batch[i]!.done?.(errors[i], errors[i] === null ? values[i] : undefined);
  }

  /** Each write in its own savepoint: a failing one is undone alone (a write of several statements, the sandbox's, all or nothing). */
  private runEachAlone(batch: Pending[], values: unknown[], errors: unknown[]): void {
    for (let i = 0; i < batch.length; i++) {
      try {
        values[i] = this.one(batch[i]!.write);
      } catch (err) {
        // An error that ended the whole transaction (SQLite rolls back on some) sinks the batch.
        if (!this.db.inTransaction) throw err;
        errors[i] = err;
      }
    }
  }

  private failBatch(error: unknown): void {
    const batch = this.pending;
    this.pending = [];
    for (const p of batch) p.done?.(error, undefined);
  }

  /**
   * Commits at once, outside the group, when the write lock is free now (`done` runs before this
   * returns). When another process holds it, the write joins the group instead, which waits on a timer
   * with the loop free: never SQLite's busy handler, which would stall every connection of the proxy.
   */
  writeNow<T>(write: (tx: CaptureTx) => T, done?: WriteDone<T>): void {
    if (this.closed) {
      done?.(new Error('The proxy is closing; nothing more is written.'), undefined);
      return;
    }
    // Queued writes commit first: the answer written now must not overtake a row still waiting.
    if (this.pending.length > 0 || this.retry !== null || !this.db.open) return this.write(write, done);
    let value: T;
    try {
      if (!this.lock.tryBegin()) return this.write(write, done);
      value = write(this.tx);
      this.lock.commit();
    } catch (err) {
      this.lock.rollback();
      done?.(err, undefined);
      return;
    }
    done?.(null, value);
  }

  close(): Promise<void> {
    this.flushWaiting();
    this.closed = true;
    return Promise.resolve();
  }
}
