// An export's rows read by the export thread itself (desk/export-thread-main.ts) from the data directory's
// SQLite file, on a read-only connection of its own, as the reading threads read it (WAL: beside the
// proxy's writes). Otherwise a reading thread reads them, posts them to the proxy's thread, and the proxy's
// thread posts them on to the export thread: each message copied in and out, its blobs with it. The
// statements are the desk's own detail read (exchange-queries.ts detailRowsPlan), run at once: a read by
// ids finds its rows by key. One connection a file, opened at the first read, closed after a minute idle.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { DeskFailure } from '../../result';
import type { DetailRows } from '../rows/exchange-rows';
import type { SqliteRowSource } from '../rows/export-rows';
import { BUSY_TIMEOUT_MS, type Db } from './db';
import { detailRowsPlan } from './exchange-queries';
import { explainStorageFailure } from './open-errors';
import { PreparedStatements, runHere } from './read-plan';

/** An idle connection is closed after this long: a file moved or replaced meanwhile is opened anew. */
const IDLE_MS = 60_000;

interface Open {
  db: Db;
  statements: PreparedStatements;
  idle: NodeJS.Timeout | null;
}

export class SqliteThreadExportReads {
  private readonly open = new Map<string, Open>();

  /** The rows of `ids` from the file `source` names, as the desk's detailRows reads them there. */
  exportRows(source: SqliteRowSource, ids: readonly number[]): DetailRows {
    try {
      const c = this.connection(source.sqlite);
      return runHere(c.db, c.statements, detailRowsPlan(ids));
    } catch (err) {
      // A failed read leaves no connection behind: the next opens the file again.
      this.forget(source.sqlite.file);
      // Damage, a lock held past the wait, a disk error: in the words the desk uses for its own reads.
      const explained = explainStorageFailure(err, source.sqlite.file);
      if (explained) throw new DeskFailure('io-error', explained.message);
      const code = (err as { code?: unknown } | null)?.code;
      const why = `${err instanceof Error ? err.message : String(err)}${typeof code === 'string' ? `, ${code}` : ''}`;
      throw new DeskFailure('io-error', `The log ${source.sqlite.file} could not be read for the export (${why}).`);
    } finally {
      this.idleAfter(source.sqlite.file);
    }
  }

  private connection(s: SqliteRowSource['sqlite']): Open {
    const kept = this.open.get(s.file);
    if (kept) {
      if (kept.idle) clearTimeout(kept.idle);
      kept.idle = null;
      return kept;
    }
    // The desk's better-sqlite3, by the path it resolved: a thread evaluated from source has no module
    // location of its own to resolve it from, and Electron's binding is named, not found.
    const Database = createRequire(import.meta.url)(s.modulePath) as typeof BetterSqlite3;
    const db = new Database(s.file, { readonly: true, fileMustExist: true, ...(s.nativeBinding ? { nativeBinding: s.nativeBinding } : {}) });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const opened = { db, statements: new PreparedStatements(db), idle: null };
    this.open.set(s.file, opened);
    return opened;
  }

  private idleAfter(file: string): void {
    const c = this.open.get(file);
    if (!c) return;
    c.idle = setTimeout(() => this.forget(file), IDLE_MS);
    c.idle.unref();
  }

  private forget(file: string): void {
    const c = this.open.get(file);
    this.open.delete(file);
    if (!c) return;
    if (c.idle) clearTimeout(c.idle);
    c.db.close();
  }
}
