// Search over everything an exchange stored, and requests saved from the composer.
//
// exchange_text is an FTS5 index with the trigram tokenizer: a phrase of three characters or more
// matches any substring (case-insensitively) of the indexed text, so "1002" finds "dep-10023" and a
// body's words are found wherever they are. It is contentless (the text is not kept twice; the index
// holds only trigrams of what the exchanges table already stores, and stored bytes are already
// redacted) with contentless_delete, so a deleted or pruned exchange leaves the index too.
//
// Each exchange is two documents: its request at rowid 2·id, its answer at 2·id + 1. The answer arrives
// after the request (the proxy records the request before it forwards), and a separate document lets
// the completion index the answer alone instead of tokenizing the request a second time. Rowids keep
// the exchanges' order, so "newest first" is a walk of the index in reverse.
//
// The index is filled in batches, off the capture path (store/text-index.ts): rows up to
// exchange_text_state.indexed_upto are indexed, and a search first indexes the rows written since. A
// trigger on each row made a capture about ten times dearer to write (bench/writes.ts); batching moves
// that cost from the proxy's commits to the first search after them. Changes to rows already indexed
// (an answer that arrives after the indexer passed, a row deleted or pruned) are applied by triggers,
// whose WHEN clause keeps them idle for the rows not indexed yet (the proxy's new ones). Bodies are
// indexed from their first 64 KiB, read as UTF-8 text.
import type { Db } from '../db';

/** Bytes of a body the index reads: enough for any callback, bounded for a large upload. */
export const INDEXED_BODY_BYTES = 65_536;

/** The request as indexed text: method, path and query, target, header lines, body, and the ids read from it (a body cut short may hold them whole only there). */
export const requestText = (r: 'new' | 'old'): string =>
  `${r}.method || ' ' || ${r}.path || CASE WHEN ${r}.query = '' THEN '' ELSE '?' || ${r}.query END || char(10) ||
   coalesce(${r}.target, '') || char(10) ||
   coalesce((SELECT group_concat(value ->> 0 || ': ' || (value ->> 1), char(10)) FROM json_each(${r}.req_headers)), '') || char(10) ||
   CAST(substr(${r}.req_body, 1, ${INDEXED_BODY_BYTES}) AS TEXT) || char(10) ||
   concat_ws(' ', ${r}.deposit_id, ${r}.user_id, ${r}.game_id, ${r}.tournament_id)`;

/** The answer as indexed text: status, header lines, body, and the error that stood in for an answer. */
export const answerText = (r: 'new' | 'old'): string =>
  `coalesce(${r}.res_status, '') || char(10) ||
   coalesce((SELECT group_concat(value ->> 0 || ': ' || (value ->> 1), char(10)) FROM json_each(${r}.res_headers)), '') || char(10) ||
   coalesce(CAST(substr(${r}.res_body, 1, ${INDEXED_BODY_BYTES}) AS TEXT), '') || char(10) ||
   coalesce(${r}.error, '')`;

export const hasAnswer = (r: 'new' | 'old'): string => `(${r}.res_status IS NOT NULL OR ${r}.error IS NOT NULL)`;

const INDEXED = (r: 'new' | 'old'): string => `${r}.id <= (SELECT indexed_upto FROM exchange_text_state)`;

const SEARCH = `
CREATE VIRTUAL TABLE exchange_text USING fts5(text, tokenize = 'trigram', content = '', contentless_delete = 1);

CREATE TABLE exchange_text_state (
  one          INTEGER PRIMARY KEY CHECK (one = 1),
  indexed_upto INTEGER NOT NULL
) STRICT;
INSERT INTO exchange_text_state (one, indexed_upto) VALUES (1, 0);

CREATE TRIGGER exchange_text_request
AFTER UPDATE OF method, path, query, target, req_headers, req_body, deposit_id, user_id, game_id, tournament_id ON exchanges
WHEN ${INDEXED('new')} BEGIN
  INSERT OR REPLACE INTO exchange_text (rowid, text) VALUES (new.id * 2, ${requestText('new')});
END;

-- A first answer is only added; an answer replaced (a row completed again) is removed first.
CREATE TRIGGER exchange_text_answer AFTER UPDATE OF res_status, res_headers, res_body, error ON exchanges WHEN ${INDEXED('old')} BEGIN
  DELETE FROM exchange_text WHERE ${hasAnswer('old')} AND rowid = old.id * 2 + 1;
  INSERT INTO exchange_text (rowid, text) SELECT new.id * 2 + 1, ${answerText('new')} WHERE ${hasAnswer('new')};
END;

CREATE TRIGGER exchange_text_delete AFTER DELETE ON exchanges WHEN ${INDEXED('old')} BEGIN
  DELETE FROM exchange_text WHERE rowid = old.id * 2;
  DELETE FROM exchange_text WHERE ${hasAnswer('old')} AND rowid = old.id * 2 + 1;
END;
`;

const SAVED_REQUESTS = `
CREATE TABLE saved_requests (
  profile   TEXT NOT NULL,
  name      TEXT NOT NULL,
  method    TEXT NOT NULL,
  path      TEXT NOT NULL,
  headers   TEXT NOT NULL,
  body      BLOB NOT NULL,
  signature TEXT NOT NULL CHECK (signature IN ('resign', 'invalid', 'none')),
  saved_at  TEXT NOT NULL,
  PRIMARY KEY (profile, name)
) STRICT;
`;

export function up(db: Db): void {
  db.exec(SEARCH);
  db.exec(SAVED_REQUESTS);
}
