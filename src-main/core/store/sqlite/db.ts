// The SQLite connection's type and wait, in a file of their own so that the migrations (which open.ts runs)
// and the threads that open the file themselves can name them without importing open.ts (and the driver).
import type Database from 'better-sqlite3';

export type Db = Database.Database;

/** How long a connection waits for another's lock before it fails (SQLite's busy handler). */
export const BUSY_TIMEOUT_MS = 5_000;
