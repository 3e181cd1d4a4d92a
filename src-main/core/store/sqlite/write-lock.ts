// Taking the write lock without waiting for it. SQLite's busy handler waits for another process's lock
// by sleeping inside the call (in growing steps of up to 100 ms), which on the proxy's event loop stalls
// every connection, not only the write that met the lock. A caller that can wait on a timer instead asks
// here: the lock now, or "busy" at once, and tries again later without ever blocking its thread.
import { DataDirError } from './open-errors';
import type { Db } from './db';

/** Whether SQLite refused because another connection holds a lock (SQLITE_BUSY and its extended codes). */
export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** The error of a write that waited `waitedMs` for another process's write lock and gave up. */
export function lockWaitError(file: string, waitedMs: number): DataDirError {
  const seconds = waitedMs >= 1000 ? `${Math.round(waitedMs / 100) / 10} s` : `${Math.round(waitedMs)} ms`;
  return new DataDirError(
    'locked',
    file,
    `The database ${file} stayed locked by another process for ${seconds}: the app, a prune or another \`wager-desk\` command on this data directory kept its write lock. Stop that process or let it finish.`,
  );
}

/**
 * BEGIN IMMEDIATE that fails at once instead of sleeping in the busy handler. The connection's busy
 * timeout is set to 0 for that one statement and put back right after, so every other statement on the
 * connection (the app's own writes, the schema check) keeps waiting out a lock as before. SQLite applies
 * PRAGMA busy_timeout when the statement is prepared, not when it runs, so the two pragmas are parsed
 * on each try (a few microseconds); the transaction statements are prepared once.
 */
export class WriteLock {
  private readonly noWait;
  private readonly wait;
  private readonly begin;
  private readonly commitStmt;
  private readonly rollbackStmt;

  constructor(private readonly db: Db) {
    const timeout = db.pragma('busy_timeout', { simple: true }) as number;
    this.noWait = 'PRAGMA busy_timeout = 0';
    this.wait = `PRAGMA busy_timeout = ${timeout}`;
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commitStmt = db.prepare('COMMIT');
    this.rollbackStmt = db.prepare('ROLLBACK');
  }

  /** Begins a write transaction if the lock is free now; false (and nothing begun) if another connection holds it. */
  tryBegin(): boolean {
    this.db.exec(this.noWait);
    try {
      this.begin.run();
      return true;
    } catch (err) {
      if (isBusy(err)) return false;
      throw err;
    } finally {
      this.db.exec(this.wait);
    }
  }

  /** Begins a write transaction, waiting out another connection's lock as the busy timeout allows. */
  beginWaiting(): void {
    this.begin.run();
  }

  commit(): void {
    this.commitStmt.run();
  }

  /** Ends the transaction, if SQLite has not ended it already (some errors roll back by themselves). */
  rollback(): void {
    if (this.db.inTransaction) this.rollbackStmt.run();
  }
}
