// What kind of search a string is, the same on both engines: long enough for a text index (a trigram), or
// a prefix of a depositId or userId.

/** Characters (code points) a search needs to go through the text index: one trigram. */
export const MIN_TEXT_SEARCH = 3;

/** Whether a search is long enough for the text index (else it is an id prefix). */
export function isTextSearch(search: string): boolean {
  return [...search].length >= MIN_TEXT_SEARCH;
}
