// The databases this process has open, in a file of their own so that open-errors.ts names a failing
// file without importing open.ts (and the driver with it): the export thread explains its own failures.
import type { Db } from './db';

/** Kept by openDatabase: added when a database opens, removed when it closes. */
export const openDatabases: Set<Db> = new Set();

/** The files of the databases open in this process (one in the CLI and the app). */
export function openDatabaseFiles(): string[] {
  return [...openDatabases].map((db) => db.name);
}
