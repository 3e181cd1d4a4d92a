// What an export's read of a slice gives: the rows, or where the export thread reads them itself. Rows
// read anywhere else come to the proxy's thread and go from there to the export thread: a PostgreSQL
// driver parses every column of every row on the thread that made the query (tens of thousands of columns
// for a HAR of hundreds of rows), and SQLite's reading threads send their rows over as messages that the
// proxy's thread takes in and sends on, its blobs copied each time. So each engine's rows are read by the
// export thread, on a connection of its own (RowsReadElsewhere); the proxy's thread reads them itself,
// through `readHere`, only where no export thread can start.
import type { DetailRows } from './exchange-rows';

/** A team's PostgreSQL, by URL (its password included: the value stays inside the process), and the read budget of its statements. */
export interface PostgresRowSource {
  postgres: { url: string; statementTimeoutMs: number };
}

/**
 * The data directory's SQLite file, opened read-only, and the better-sqlite3 a thread loads to open it:
 * the desk's own, by its resolved path, with the desk's native binding where it has one (Electron's).
 */
export interface SqliteRowSource {
  sqlite: { file: string; modulePath: string; nativeBinding: string | null };
}

/** Where a thread of this process reads the rows on its own connection. */
export type ThreadRowSource = PostgresRowSource | SqliteRowSource;

/** Rows not read yet: the export thread reads them from `readThere`; `readHere` reads them on the calling thread instead. */
export interface RowsReadElsewhere {
  readThere: ThreadRowSource;
  readHere(): Promise<DetailRows>;
  /**
   * Tells the log that a read of `readThere` is under way, until the function it returns is called: a log
   * that waits for no reader while it has one (SQLite's checkpointer) counts this one too.
   */
  underWay?(): () => void;
}

/** What an export's read gives: the rows, or where to read them. */
export type ExportRead = DetailRows | RowsReadElsewhere;

export const readElsewhere = (found: ExportRead): found is RowsReadElsewhere => 'readThere' in found;

/** Whether the read found no row (rows read elsewhere are not known yet: not empty). */
export const foundNone = (found: ExportRead): boolean => !readElsewhere(found) && found.rows.length === 0;
