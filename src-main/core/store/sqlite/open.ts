import Database from 'better-sqlite3';
import { LATEST_VERSION, migrate } from './migrations';

export type { Db } from './db';
import { BUSY_TIMEOUT_MS, type Db } from './db';
// A storage error met later names its file (see explainStorageFailure).
import { forgetOpenDatabase, trackOpenDatabase } from './open-files';

export class DatabaseTooNewError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `The database ${file} was written by a newer Wager Desk (schema ${found}; this version knows up to ${supported}). ` +
        'It was left untouched: update Wager Desk, or point --home at another directory.',
    );
    this.name = 'DatabaseTooNewError';
  }
}

export interface OpenOptions {
  /** Path of a better_sqlite3.node built for the running ABI (Electron keeps its own copy). */
  nativeBinding?: string;
  readonly?: boolean;
}

export { BUSY_TIMEOUT_MS };

/**
 * Opens (creating if needed) the desk's database and brings its schema up to date.
 * WAL with synchronous=NORMAL: a committed transaction survives the process being killed at any moment
 * (the promise the proxy makes); only an OS crash or power loss can roll back the last commits.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const db = new Database(file, {
    // The same wait from the first statement on (the schema check and migrations included).
    timeout: BUSY_TIMEOUT_MS,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.readonly ? { readonly: true } : {}),
  });
  try {
    const found = db.pragma('user_version', { simple: true }) as number;
    if (found > LATEST_VERSION) throw new DatabaseTooNewError(file, found, LATEST_VERSION);
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    // A larger page cache keeps the indexes' hot pages in memory under a stream of captures.
    db.pragma('cache_size = -32768');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!options.readonly) migrate(db, found);
    trackOpenDatabase(db);
    const close = db.close.bind(db);
    db.close = () => {
      forgetOpenDatabase(db);
      return close();
    };
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
