// The databases this process has open, in a file of their own so that open-errors.ts names a failing
// file without importing open.ts (and the driver with it): the export thread explains its own failures.
import type { Db } from './db';

const openDatabases = new Set<Db>();

/** Keeps `db` in the list until it closes (openDatabase calls this for each database it opens). */
export function trackOpenDatabase(db: Db): void {
  openDatabases.add(db);
}

export function forgetOpenDatabase(db: Db): void {
  openDatabases.delete(db);
}

/** The files of the databases open in this process (one in the CLI and the app). */
export function openDatabaseFiles(): string[] {
  return [...openDatabases].map((db) => db.name);
}
