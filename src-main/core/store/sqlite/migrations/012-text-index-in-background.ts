// The text index is kept up to date by a background indexer (store/text-indexer.ts) instead of by
// triggers on the proxy's writes. The answer trigger of migration 009 read exchange_text_state for every
// answer the proxy recorded (its WHEN clause), on the capture path; now nothing fires on an UPDATE.
//
// The indexer indexes a row once it is complete (answered, or an error in place of the answer), so an
// answer never arrives for a row already indexed. A row still in flight after a while (a proxy that
// stopped mid-request leaves such rows for good) is indexed without its answer and listed in
// exchange_text_unanswered: a search reads a listed row's answer from the row itself, and the indexer
// indexes the answer if it ever comes and drops the row from the list. A row is recorded complete once
// (the proxy, a send, an import each complete a row once), so an indexed answer stays right.
//
// A database indexed by 009's triggers stays right: its indexed rows still in flight are listed here,
// so their answers, which no trigger indexes any more, are found the same way. Deletes keep a trigger
// (prune and delete are not the capture path): it removes a row's documents and its place in the list.
import type { Db } from '../db';
import { hasAnswer } from './009-search-and-saved-requests';

const INDEXED = (r: 'old'): string => `${r}.id <= (SELECT indexed_upto FROM exchange_text_state)`;

export const isComplete = (r: string): string => `(${r}.completed_at IS NOT NULL OR ${r}.res_status IS NOT NULL OR ${r}.error IS NOT NULL)`;

export function up(db: Db): void {
  db.exec(`
    DROP TRIGGER exchange_text_request;
    DROP TRIGGER exchange_text_answer;
    DROP TRIGGER exchange_text_delete;

    CREATE TABLE exchange_text_unanswered (
      id INTEGER PRIMARY KEY
    ) STRICT;

    INSERT INTO exchange_text_unanswered (id)
      SELECT id FROM exchanges AS e WHERE id <= (SELECT indexed_upto FROM exchange_text_state) AND NOT ${isComplete('e')};

    -- The answer's document exists for an indexed row that had its answer when indexed (not listed).
    CREATE TRIGGER exchange_text_delete AFTER DELETE ON exchanges WHEN ${INDEXED('old')} BEGIN
      DELETE FROM exchange_text WHERE rowid = old.id * 2;
      DELETE FROM exchange_text WHERE ${hasAnswer('old')} AND rowid = old.id * 2 + 1
        AND NOT EXISTS (SELECT 1 FROM exchange_text_unanswered WHERE id = old.id);
      DELETE FROM exchange_text_unanswered WHERE id = old.id;
    END;
  `);
}
