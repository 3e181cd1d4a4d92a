// FTS5's automerge is paused while a prune deletes. A delete from the text index rewrites the tombstone
// pages of the row's segment at the next commit, and FTS5 counts those pages as work done, to be matched
// by merging: on a log with every row indexed, each of a prune's commits then merged for 45 to 440 ms
// with the write lock held, where the batch had budgeted 10 (BENCHMARKS.md §11). Paused, the batches
// stay within their bound; afterwards automerge resumes with the index's next writes, a little at a time.
// The setting lives in the database: a prune killed while it runs leaves it paused until the next prune
// ends (searches stay right; new segments then merge only when a level holds too many, FTS5's
// crisismerge).
import type { Db } from './db';

/** FTS5's default, what a database that never set it has. */
const DEFAULT_AUTOMERGE = 4;

function setAutomerge(db: Db, value: number): void {
  db.exec(`INSERT INTO exchange_text (exchange_text, rank) VALUES ('automerge', ${Math.trunc(value)})`);
}

/** Runs `work` with the text index's automerge paused, and puts back the setting it found. */
export async function withTextMergesPaused<T>(db: Db, work: () => Promise<T>): Promise<T> {
  const found = db.prepare("SELECT v FROM exchange_text_config WHERE k = 'automerge'").pluck().get() as number | undefined;
  // 0 is what a prune killed mid-way left; the desk never sets it otherwise.
  const previous = found === undefined || found === 0 ? DEFAULT_AUTOMERGE : found;
  setAutomerge(db, 0);
  try {
    return await work();
  } finally {
    if (db.open) setAutomerge(db, previous);
  }
}
