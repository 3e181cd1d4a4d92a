// The team database a data directory's desk uses when neither --database nor WAGER_DESK_DATABASE_URL
// names one: set with `wager-desk db use`, read by the app at its start as by every command. It lives in
// a file of its own that only its owner may read, beside the key, not in the log's database: the URL may
// hold the database's password, and the database is where it would be copied, exported and backed up.
// (PostgreSQL's own ~/.pgpass keeps the password out of the URL altogether; docs/TEAM.md says how.)
import { closeSync, constants, fstatSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { privateFileProblem } from '../private-file';
import { DeskFailure } from '../result';
import { databaseUrlProblem, redactDatabaseUrl } from '../store/database-url';

export const SAVED_DATABASE_FILE = 'team-database';
/** A URL is a line; anything this long is not one. */
const MAX_BYTES = 4096;

export function savedDatabaseFile(home: string): string {
  return join(home, SAVED_DATABASE_FILE);
}

function unusable(file: string, why: string): DeskFailure {
  return new DeskFailure(
    'bad-input',
    `The team database saved in ${file} cannot be used: ${why}. Set it again with \`wager-desk db use URL\`, or go back to the data directory's own log with \`wager-desk db use --sqlite\`.`,
  );
}

/** The saved URL, or undefined when none is saved; a file that is not fit to read, or holds no URL, is refused with its reason. */
export function savedDatabase(home: string): string | undefined {
  const file = savedDatabaseFile(home);
  let fd: number;
  try {
    // Non-blocking: a FIFO in its place must not hang the desk's start (it is refused by type).
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw unusable(file, (err as Error).message);
  }
  let text: string;
  try {
    const stat = fstatSync(fd);
    const unfit = privateFileProblem(stat);
    if (unfit?.problem === 'damaged') throw unusable(file, unfit.detail);
    if (unfit?.problem === 'foreign-owner') throw unusable(file, `it belongs to another user (${unfit.detail})`);
    if (unfit) throw unusable(file, `others may read it (mode ${unfit.detail}), and it may hold the database's password`);
    if (stat.size > MAX_BYTES) throw unusable(file, `it is ${stat.size} bytes, more than a URL (${MAX_BYTES} at most)`);
    const buf = Buffer.alloc(stat.size);
    const read = readSync(fd, buf, 0, stat.size, 0);
    text = buf.subarray(0, read).toString('utf8').trim();
  } finally {
    closeSync(fd);
  }
  const problem = databaseUrlProblem(text);
  if (problem) throw unusable(file, `${redactDatabaseUrl(text)}: ${problem}`);
  return text;
}

/** Saves the URL (readable by its owner only, replaced whole so a reader never sees half of it), or forgets it (null). */
export function saveDatabase(home: string, url: string | null): void {
  const file = savedDatabaseFile(home);
  if (url === null) {
    rmSync(file, { force: true });
    return;
  }
  const fresh = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(fresh, `${url}\n`, { mode: 0o600, flag: 'wx' });
  try {
    renameSync(fresh, file);
  } catch (err) {
    rmSync(fresh, { force: true });
    throw err;
  }
}
