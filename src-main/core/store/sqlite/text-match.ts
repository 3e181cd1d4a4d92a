// A row's text tested directly, without the index: for the rows the background indexer has not reached
// (or whose answer came after it passed), and for the plan that starts from a rare filter. The text is
// the same expressions the index is filled from (migration 009), and the test is a substring one, as a
// trigram phrase is. SQLite's lower() folds ASCII letters only, where the trigram tokenizer folds all of
// Unicode: a search that differs from the text only in the case of a non-ASCII letter is found by the
// index, not by this test.
import { answerText, hasAnswer, requestText } from './migrations/009-search-and-saved-requests';

/** The search as the direct test takes it: ASCII letters lowered, as lower() lowers the text. */
export function textNeedle(search: string): string {
  return search.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Whether the row `new` (migration 009's text expressions name the row so) holds @needle in its request or answer. */
export const DIRECT_TEXT_MATCH = `(instr(lower(${requestText('new')}), @needle) > 0 OR (${hasAnswer('new')} AND instr(lower(${answerText('new')}), @needle) > 0))`;

/** Rows the index does not answer for in full: after indexed_upto, or indexed before their answer came. */
export const NOT_FULLY_INDEXED = `(new.id > (SELECT indexed_upto FROM exchange_text_state) OR new.id IN (SELECT id FROM exchange_text_unanswered))`;
