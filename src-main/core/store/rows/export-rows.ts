// What an export's read of a slice gives: the rows, or where the export thread reads them itself. SQLite's
// rows come from its reading threads, already off the proxy's thread. A PostgreSQL driver parses every
// column of every row on the thread that made the query, and a HAR of hundreds of rows is tens of
// thousands of columns: on the proxy's thread that parsing, the strings' garbage and the waits of the
// thread that wakes the server would all fall on the callbacks. So a team's rows are read by the export
// thread, on a connection of its own (RowsReadElsewhere); the proxy's thread reads them itself, through
// `readHere`, only where no export thread can start.
import type { DetailRows } from './exchange-rows';

/**
 * Where a thread of this process reads the rows on its own connection: a team's PostgreSQL, by URL (its
 * password included: the value stays inside the process) and the read budget of its statements.
 */
export interface ThreadRowSource {
  postgres: { url: string; statementTimeoutMs: number };
}

/** Rows not read yet: the export thread reads them from `readThere`; `readHere` reads them on the calling thread instead. */
export interface RowsReadElsewhere {
  readThere: ThreadRowSource;
  readHere(): Promise<DetailRows>;
}

/** What an export's read gives: the rows, or where to read them. */
export type ExportRead = DetailRows | RowsReadElsewhere;

export const readElsewhere = (found: ExportRead): found is RowsReadElsewhere => 'readThere' in found;

/** Whether the read found no row (rows read elsewhere are not known yet: not empty). */
export const foundNone = (found: ExportRead): boolean => !readElsewhere(found) && found.rows.length === 0;
