// Two changes for deleting most of the log.
//
// An exchange's id is never given again. SQLite gives a new row the highest id in the table plus one, so
// once the newest rows were deleted (a prune of everything, a delete of what a filter shows) the next
// captures took their ids again: a follower (`tail`, the live list) whose cursor stood past them never
// showed them, and the text index counted them as indexed. exchange_id_floor keeps the highest id ever
// deleted; an insert takes the next id after it or after the newest row, whichever is higher.
//
// The text index's delete trigger stands aside while exchange_text_state.retiring is set. A prune that
// deletes nearly every row sets it, so its batches delete rows only, and then puts a fresh, empty index
// in place of the old one (text-index-retire.ts): deleting each row's documents left a tombstone per
// row, and FTS5 then rewrote the whole index at once, seconds with the write lock held. The rows the
// prune deletes keep their documents in the old index meanwhile; a search joins the index to the rows,
// so a deleted row is never found, and since ids are never given again no new row can match them.
import type { Db } from '../db';
import { hasAnswer } from './009-search-and-saved-requests';

/** The id the next inserted exchange takes (an expression for the insert's id column). */
export const NEXT_EXCHANGE_ID = '(SELECT max(coalesce((SELECT max(id) FROM exchanges), 0), floor) + 1 FROM exchange_id_floor)';

/** Removes an indexed row's documents when the row is deleted, unless the index is being retired. */
export const TEXT_INDEX_DELETE_TRIGGER = `
  CREATE TRIGGER exchange_text_delete AFTER DELETE ON exchanges
    WHEN old.id <= (SELECT indexed_upto FROM exchange_text_state WHERE retiring = 0) BEGIN
      DELETE FROM exchange_text WHERE rowid = old.id * 2;
      DELETE FROM exchange_text WHERE ${hasAnswer('old')} AND rowid = old.id * 2 + 1
        AND NOT EXISTS (SELECT 1 FROM exchange_text_unanswered WHERE id = old.id);
      DELETE FROM exchange_text_unanswered WHERE id = old.id;
    END`;

export function up(db: Db): void {
  db.exec(`
    CREATE TABLE exchange_id_floor (
      one   INTEGER PRIMARY KEY CHECK (one = 1),
      floor INTEGER NOT NULL
    ) STRICT;
    INSERT INTO exchange_id_floor (one, floor) VALUES (1, coalesce((SELECT max(id) FROM exchanges), 0));
    CREATE TRIGGER exchange_id_floor_raise AFTER DELETE ON exchanges
      WHEN old.id > (SELECT floor FROM exchange_id_floor) BEGIN
        UPDATE exchange_id_floor SET floor = old.id;
      END;

    ALTER TABLE exchange_text_state ADD COLUMN retiring INTEGER NOT NULL DEFAULT 0;
    DROP TRIGGER exchange_text_delete;
    ${TEXT_INDEX_DELETE_TRIGGER};
  `);
}
