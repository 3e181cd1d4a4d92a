// A delete from the text index leaves a tombstone and nothing more: FTS5's `deletemerge` (on by default
// for contentless-delete tables) rewrote a segment as soon as a tenth of its rows were deleted, inside
// the deleting transaction. A prune deletes the oldest rows in order, so segment after segment crossed
// that line, and a batch meant to hold the write lock for 10 ms held it for 100 to 540 ms while FTS5
// merged (measured on a log of 1,000,000 rows with its oldest 15,000 indexed), every capture of a proxy
// beside it waiting as long. With it off, deleted rows are still never found (their tombstones hide
// them); their postings go when FTS5's ordinary, incremental automerge rewrites their segments, or at
// once with `wager-desk prune --vacuum`, which optimizes the index before rebuilding the file.
import type { Db } from '../db';

export function up(db: Db): void {
  db.exec("INSERT INTO exchange_text (exchange_text, rank) VALUES ('deletemerge', 0)");
}
