// A prune that deletes nearly every row puts a fresh text index in place of the old one instead of
// deleting each row's documents from it.
//
// Deleting from the index leaves a tombstone per document; once most of a segment's documents are
// tombstones, FTS5's automerge rewrites them all at the index's next write, in one go: on a log of
// 1,000,000 rows, every row indexed, 2 s and more with the write lock held after a prune kept 1,000
// (BENCHMARKS.md §11), and no FTS5 command splits that work. So:
//
// 1. before its first batch the prune sets exchange_text_state.retiring: the delete trigger (migration
//    014) then leaves the index alone, and each batch deletes rows only. Searches stay right: the index
//    is joined to the rows, and ids are never given again;
// 2. after its last batch, one short transaction renames the index aside, creates an empty one in its
//    place and marks every row unindexed: the background indexer indexes the rows kept, and a search
//    tests them directly until then (text-search.ts);
// 3. the old index's rows are deleted in short batches, like the prune's, and the emptied table is
//    dropped. Dropping it whole held the lock about a second on that log.
//
// A prune cut short leaves `retiring` set or the old index in place; the next prune finishes both.
import { performance } from 'node:perf_hooks';
import { BatchPacer } from './batch-pacer';
import type { Db } from './db';
import { TEXT_INDEX_DELETE_TRIGGER } from './migrations/014-ids-never-reused-and-text-index-retiring';

/** A prune retires the index when it keeps at most this share of the log... */
const RETIRE_KEPT_SHARE = 0.1;
/** ...and deletes at least this many rows: fewer leave few tombstones, and reindexing costs more than they do. */
const RETIRE_MIN_ROWS = 10_000;

const RETIRED = 'exchange_text_retired';
/** The old index's tables with many rows, emptied in batches before the drop (its _idx and _config are small). */
const RETIRED_BULK = [`${RETIRED}_data`, `${RETIRED}_docsize`];
/** How long one batch of the old index's deletion holds the write lock, at most (prune-batches.ts aims at 10 ms). */
const DROP_BATCH_MS = 8;
const DROP_CHUNK_ROWS = 16;

/** Whether a prune deleting `deleting` of `total` rows should retire the index. */
export function shouldRetire(deleting: number, total: number): boolean {
  return deleting >= RETIRE_MIN_ROWS && total - deleting <= total * RETIRE_KEPT_SHARE;
}

/** Whether a retirement was begun and the fresh index not put in place yet (a prune cut short while it deleted). */
export function retiring(db: Db): boolean {
  return (db.prepare('SELECT retiring FROM exchange_text_state').pluck().get() as number) !== 0;
}

function retiredIndexExists(db: Db): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(RETIRED) !== undefined;
}

/** From now on deleted rows keep their documents in the index (migration 014's trigger). */
export function beginRetiring(db: Db): void {
  db.prepare('UPDATE exchange_text_state SET retiring = 1').run();
}

/**
 * Puts an empty index in place of the current one, keeping its merge settings, and marks every row
 * unindexed; then deletes the old index in batches. Resolves once it is gone.
 */
export async function retireTextIndex(db: Db): Promise<void> {
  // An old index left by a prune cut short goes first: the name is needed again.
  await dropRetired(db);
  swapInFreshIndex(db);
  await dropRetired(db);
}

/** The one short transaction: the index renamed aside, an empty one in its place, every row unindexed. */
export function swapInFreshIndex(db: Db): void {
  db.transaction(() => {
    const settings = db.prepare("SELECT k, v FROM exchange_text_config WHERE k IN ('automerge', 'deletemerge')").all() as Array<{ k: string; v: number }>;
    db.exec(`
      ALTER TABLE exchange_text RENAME TO ${RETIRED};
      CREATE VIRTUAL TABLE exchange_text USING fts5(text, tokenize = 'trigram', content = '', contentless_delete = 1);
      DROP TRIGGER exchange_text_delete;
      ${TEXT_INDEX_DELETE_TRIGGER};
      UPDATE exchange_text_state SET indexed_upto = 0, retiring = 0;
      DELETE FROM exchange_text_unanswered;
    `);
    // FTS5 takes its commands as literals only, not as bound parameters; k is one of the two names above.
    for (const { k, v } of settings) db.exec(`INSERT INTO exchange_text (exchange_text, rank) VALUES ('${k}', ${Math.trunc(v)})`);
  }).immediate();
}

/**
 * Deletes the old index's rows in batches that each hold the write lock a few ms, then drops it; nothing
 * when there is none (a prune cut short while it did this leaves the rest to the next one).
 */
export async function dropRetired(db: Db): Promise<void> {
  if (!retiredIndexExists(db)) return;
  // FTS5's tables are written only by FTS5 unless the connection's defensive flag is off.
  db.unsafeMode(true);
  const pacer = new BatchPacer(db);
  try {
    for (const table of RETIRED_BULK) {
      const remove = db.prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} LIMIT ${DROP_CHUNK_ROWS})`);
      const batch = db.transaction(() => {
        const began = performance.now();
        let done = false;
        while (!done && performance.now() - began < DROP_BATCH_MS) done = remove.run().changes < DROP_CHUNK_ROWS;
        return done;
      });
      for (;;) {
        const began = performance.now();
        const done = batch.immediate();
        const holdMs = performance.now() - began;
        await pacer.checkpoint();
        if (done) break;
        await pacer.pause(holdMs);
      }
    }
  } finally {
    pacer.close();
    if (db.open) db.unsafeMode(false);
  }
  db.exec(`DROP TABLE ${RETIRED}`);
}
