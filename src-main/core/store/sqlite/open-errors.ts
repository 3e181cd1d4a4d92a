// What went wrong opening the data directory, in words a support person can act on. SQLite's own
// messages ("file is not a database", "attempt to write a readonly database") name neither the file nor
// a way out; the shells print this message as it is (the CLI: one line on stderr, exit 2).
import { dirname } from 'node:path';
import { BUSY_TIMEOUT_MS } from './db';
import { openDatabaseFiles } from './open-files';

export type DataDirProblem = 'damaged' | 'not-writable' | 'disk-full' | 'locked';

export class DataDirError extends Error {
  constructor(
    readonly problem: DataDirProblem,
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'DataDirError';
  }
}

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** The cause in SQLite's or the OS's words, on one line. */
function cause(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
}

/**
 * Maps a failure to open the store onto a DataDirError; anything else (a database from a newer version,
 * a damaged key file, a bug) is returned unchanged, its own message being clear already.
 */
export function explainOpenFailure(err: unknown, dir: string, databaseFile: string): unknown {
  const code = codeOf(err);
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new DataDirError(
      'damaged',
      databaseFile,
      `The database ${databaseFile} is damaged or is not a Wager Desk database (${cause(err)}). It was left as it is: move it aside or restore a backup, or use another data directory (--home or WAGER_DESK_HOME).`,
    );
  }
  if (
    code.startsWith('SQLITE_READONLY') ||
    code.startsWith('SQLITE_CANTOPEN') ||
    code === 'SQLITE_PERM' ||
    code === 'EACCES' ||
    code === 'EPERM' ||
    code === 'EROFS'
  ) {
    return new DataDirError(
      'not-writable',
      dir,
      `The data directory ${dir} cannot be written (${cause(err)}): Wager Desk keeps its database and key file there and needs to write them. Fix its permissions, or use another data directory (--home or WAGER_DESK_HOME).`,
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new DataDirError(
      'locked',
      databaseFile,
      `The database ${databaseFile} stayed locked by another process for more than ${BUSY_TIMEOUT_MS / 1000} s (${cause(err)}): the app or a \`wager-desk serve\` on this data directory is writing to it (a prune, a heavy load). Nothing was changed; try again, or stop the other process first.`,
    );
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
    return new DataDirError(
      'disk-full',
      dir,
      `The disk that holds ${dir} is full (${cause(err)}): free some space (\`wager-desk prune\` deletes old exchanges), or use another data directory (--home or WAGER_DESK_HOME).`,
    );
  }
  return err;
}

const STORAGE_CODES = /^(SQLITE_CORRUPT|SQLITE_NOTADB|SQLITE_FULL|SQLITE_READONLY|SQLITE_IOERR|SQLITE_BUSY|SQLITE_LOCKED)/;

/**
 * A storage error met after the database opened (damage behind an intact first page shows only when the
 * damaged page is read; a disk fills up while the desk runs), as a DataDirError that names the database
 * file and the way out; null for anything else. The file is `known` where the caller knows it (a thread
 * that opened the file itself), else the one database this process has open (the CLI and the app open
 * one); with several open, the message says "the Wager Desk database".
 */
export function explainStorageFailure(err: unknown, known?: string): DataDirError | null {
  const code = codeOf(err);
  if (!STORAGE_CODES.test(code)) return null;
  const files = known !== undefined ? [known] : openDatabaseFiles();
  const file = files.length === 1 ? files[0]! : 'the Wager Desk database';
  if (code.startsWith('SQLITE_IOERR')) {
    return new DataDirError(
      'not-writable',
      file,
      `The database ${file} could not be read or written (${cause(err)}): check the disk and its permissions, or use another data directory (--home or WAGER_DESK_HOME).`,
    );
  }
  const explained = explainOpenFailure(err, files.length === 1 ? dirname(file) : 'the data directory', file);
  return explained instanceof DataDirError ? explained : null;
}
