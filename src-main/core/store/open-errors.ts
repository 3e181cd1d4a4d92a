// What went wrong opening the data directory, in words a support person can act on. SQLite's own
// messages ("file is not a database", "attempt to write a readonly database") name neither the file nor
// a way out; the shells print this message as it is (the CLI: one line on stderr, exit 2).

export type DataDirProblem = 'damaged' | 'not-writable' | 'disk-full';

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
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new DataDirError(
      'not-writable',
      dir,
      `The data directory ${dir} cannot be written (${cause(err)}): Wager Desk keeps its database and key file there and needs to write them. Fix its permissions, or use another data directory (--home or WAGER_DESK_HOME).`,
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
