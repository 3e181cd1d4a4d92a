// What a search of the exchange log may hold, checked before any work by every way in (the desk's argument
// schemas, so the web API and IPC; the desk itself; the CLI's --search; the UI's box). A search is a few
// words, an id or a header value: longer text is no search a person types, and each character of a text
// search is work for the trigram index (30,000 characters took seconds). Control characters are refused
// with a sentence: SQLite's full-text parser reads a NUL as the end of the phrase.

/** Characters (code points) a search may hold. */
export const MAX_SEARCH_CHARS = 256;

/** Why a search is refused (a phrase, no final stop: each way in frames it), or null when it may run. Never quotes the search. */
export function searchProblem(search: string): string | null {
  // The length in UTF-16 units bounds the code points from above: a huge string is not walked.
  if (search.length > MAX_SEARCH_CHARS && (search.length > 2 * MAX_SEARCH_CHARS || [...search].length > MAX_SEARCH_CHARS))
    return `a search holds at most ${MAX_SEARCH_CHARS} characters`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(search)) return 'a search cannot hold control characters (NUL, tab, line breaks and the like)';
  return null;
}
