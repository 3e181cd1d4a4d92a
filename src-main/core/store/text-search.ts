// Search over the text an exchange stored (its request and answer: path, query, headers, bodies) through
// the trigram index exchange_text (migration 009). A trigram index finds substrings of three characters
// or more; a shorter search is a prefix of a depositId or userId (the id columns' indexes) instead.
import type { ExchangePage } from '../../shared/model';
import type { Db } from './open';
import { textIndexOf } from './text-index';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './exchange-rows';

/** Characters (code points) a search needs to go through the text index: one trigram. */
export const MIN_TEXT_SEARCH = 3;

/** Whether a search is long enough for the text index (else it is an id prefix). */
export function isTextSearch(search: string): boolean {
  return [...search].length >= MIN_TEXT_SEARCH;
}

/** The search as one FTS5 phrase: every character literal (quotes doubled), so the text is matched as typed. */
export function textPhrase(search: string): string {
  return `"${search.replaceAll('"', '""')}"`;
}

/** The rows whose text contains the search, as a condition on the exchanges table (for walks in id order; index first: indexForSearch). */
export const TEXT_MATCH_CONDITION = 'id IN (SELECT rowid >> 1 FROM exchange_text WHERE exchange_text MATCH @phrase)';

/**
 * Pages of the text search, newest first, under the other filters. The index is walked in reverse
 * rowid order (newest first) and each document's exchange is read by its key and filtered, so the first
 * page of a common word costs about a page of rows, not every match. An exchange is two documents
 * (request, answer; adjacent in that order), so a page of `limit + 1` exchanges reads at most twice as
 * many documents, and a full read of them means there are more.
 */
export class TextSearch {
  private readonly cache = new Map<string, ReturnType<Db['prepare']>>();

  constructor(private readonly db: Db) {}

  page(where: readonly string[], params: Record<string, unknown>, search: string, limit: number): ExchangePage {
    textIndexOf(this.db).catchUp();
    const conditions = ['exchange_text MATCH @phrase', ...where];
    const bound: Record<string, unknown> = { ...params, phrase: textPhrase(search), documents: 2 * (limit + 1) };
    if (typeof params.before === 'number') (conditions.push('f.rowid < @beforeDocument'), (bound.beforeDocument = params.before * 2));
    const sql =
      `SELECT ${SUMMARY_COLUMNS} FROM exchange_text AS f JOIN exchanges ON exchanges.id = f.rowid >> 1 ` +
      `WHERE ${conditions.join(' AND ')} ORDER BY f.rowid DESC LIMIT @documents`;
    let stmt = this.cache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.cache.set(sql, stmt);
    }
    const rows = stmt.all(bound) as SummaryRow[];
    const items = [];
    let last = -1;
    for (const row of rows) {
      if (row.id === last) continue;
      last = row.id;
      items.push(toSummary(row));
    }
    const more = items.length > limit;
    return { items: items.slice(0, limit), nextBeforeId: more ? items[limit - 1]!.id : null };
  }
}

/** Before rows are read under a filter with a text search: indexes the rows written since the last one. */
export function indexForSearch(db: Db, filter: { search?: string | undefined }): void {
  if (filter.search && isTextSearch(filter.search)) textIndexOf(db).catchUp();
}
