import { createDesk, type Desk } from '../core/desk';
import { defaultHome } from '../core/desk/shell-kit';
import { DATABASE_ENV } from './database-argument';
import { UsageError } from './errors';
import type { Result } from '../shared/model';

export interface GlobalOptions {
  home?: string;
  /** --key-file: wins over WAGER_DESK_KEY_FILE and WAGER_DESK_KEY, which the desk reads itself (the app does too). */
  keyFile?: string;
  /** --database: a team's PostgreSQL holds the exchange log (else WAGER_DESK_DATABASE_URL; else the data directory's SQLite). */
  database?: string;
}

export { DATABASE_ENV };

/** The team's PostgreSQL the exchange log is in: --database, else WAGER_DESK_DATABASE_URL; undefined: the one saved with `db use`, else the data directory's. */
export function databaseOf(opts: GlobalOptions): string | undefined {
  const url = opts.database ?? process.env[DATABASE_ENV];
  return url === undefined || url === '' ? undefined : url;
}

/** The data directory: --home, then WAGER_DESK_HOME, then the per-user default the desktop app uses too. */
export function homeOf(opts: GlobalOptions): string {
  return opts.home ?? defaultHome();
}

/**
 * Opens the desk for one command and always closes it, whatever the command does. `ownLog`: the command
 * works on the data directory's own log whatever --database or `db use` say (db migrate and db copy
 * name the PostgreSQL themselves; db use sets what the others use, and must work when what it set does not).
 */
export async function withDesk<T>(opts: GlobalOptions, fn: (desk: Desk) => Promise<T>, ownLog = false): Promise<T> {
  let desk: Desk;
  const database = ownLog ? null : databaseOf(opts);
  try {
    desk = createDesk({
      home: homeOf(opts),
      ...(opts.keyFile !== undefined ? { keyFile: opts.keyFile } : {}),
      ...(database !== undefined ? { database } : {}),
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  try {
    return await fn(desk);
  } finally {
    await desk.close();
  }
}

/** Unwraps a desk Result; a desk error becomes a usage error (exit 2) unless the caller handles it. */
export function must<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new UsageError(result.error.message);
}
