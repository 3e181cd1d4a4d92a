// While a prune deletes, the text index is left alone as far as it can be, so that each of the prune's
// short batches stays short:
//
// - FTS5's automerge is paused. A delete from the text index rewrites the tombstone pages of the row's
//   segment at the next commit, and FTS5 counts those pages as work done, to be matched by merging: on
//   a log with every row indexed, each of a prune's commits then merged for 45 to 440 ms with the write
//   lock held, where the batch had budgeted 10 (BENCHMARKS.md §11). Paused, the batches stay within
//   their bound; afterwards automerge resumes with the index's next writes, a little at a time. The
//   setting lives in the database: a prune killed while it runs leaves it paused until the next prune
//   ends (searches stay right; new segments then merge only when a level holds too many, FTS5's
//   crisismerge).
// - The background indexer (text-indexer.ts) stands aside. With automerge paused, its batches are the
//   ones that meet crisismerge: one in ten or so held the lock 50 to 340 ms (traced), and a capture
//   waiting behind one of those and a prune batch waited past 100 ms. Each batch renews a notice in the
//   settings that the indexer reads before each of its batches; a prune killed mid-way holds the
//   indexer back no longer than the notice runs. Searches stay right meanwhile: rows not indexed yet
//   are read directly (text-search.ts).
import type { Db } from './db';

/** FTS5's default, what a database that never set it has. */
const DEFAULT_AUTOMERGE = 4;

/** The setting a deleting prune renews: the time (epoch ms) until which the indexer stands aside. */
export const PRUNE_DELETING_UNTIL = 'prune.deleting_until';
/** How far ahead each batch sets it: long against a batch and its pause, short against a killed prune. */
const NOTICE_MS = 5_000;

function setAutomerge(db: Db, value: number): void {
  db.exec(`INSERT INTO exchange_text (exchange_text, rank) VALUES ('automerge', ${Math.trunc(value)})`);
}

/**
 * Runs `work` with the text index's automerge paused and the indexer asked to stand aside; `renew`,
 * called in each of work's write transactions, keeps the indexer aside. Puts back the automerge setting
 * it found, and withdraws the notice, also when work fails.
 */
export async function withTextIndexAside<T>(db: Db, work: (renew: () => void) => Promise<T>): Promise<T> {
  const found = db.prepare("SELECT v FROM exchange_text_config WHERE k = 'automerge'").pluck().get() as number | undefined;
  // 0 is what a prune killed mid-way left; the desk never sets it otherwise.
  const previous = found === undefined || found === 0 ? DEFAULT_AUTOMERGE : found;
  const notice = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  setAutomerge(db, 0);
  try {
    return await work(() => notice.run(PRUNE_DELETING_UNTIL, String(Date.now() + NOTICE_MS)));
  } finally {
    if (db.open) {
      db.prepare('DELETE FROM settings WHERE key = ?').run(PRUNE_DELETING_UNTIL);
      setAutomerge(db, previous);
    }
  }
}
