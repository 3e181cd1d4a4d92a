// A balance URL's query values are credentials (?key=...): a view shows them masked (***), so a form
// that sends the URL back unchanged sends the mask, not the value. A masked value given back means
// "keep the stored one", matched by the parameter's name; a typed value replaces it.
import { DeskFailure } from '../result';
import { MASKED_QUERY_VALUE } from './probe-secrets';

function queryOf(url: string): { head: string; pairs: string[]; hash: string } {
  const q = url.indexOf('?');
  if (q < 0) return { head: url, pairs: [], hash: '' };
  const hashAt = url.indexOf('#', q);
  const query = hashAt < 0 ? url.slice(q + 1) : url.slice(q + 1, hashAt);
  return { head: url.slice(0, q), pairs: query.split('&'), hash: hashAt < 0 ? '' : url.slice(hashAt) };
}

const nameOf = (pair: string): string => (pair.includes('=') ? pair.slice(0, pair.indexOf('=')) : pair);
const isMasked = (pair: string): boolean => pair.includes('=') && pair.slice(pair.indexOf('=') + 1) === MASKED_QUERY_VALUE;

/** Whether a URL gives back a masked query value (one to keep from the stored URL). */
export function hasMaskedQueryValue(url: string): boolean {
  return queryOf(url).pairs.some(isMasked);
}

/**
 * The URL to store: `given` with each masked query value replaced by the value `stored` has under the same
 * name, in the same place among that name's values (the second `key` keeps the second stored `key`).
 * Throws bad-input, naming only the parameter, when there is no stored value to keep.
 */
export function withKeptQueryValues(given: string, stored: string | null): string {
  const { head, pairs, hash } = queryOf(given);
  if (!hasMaskedQueryValue(given)) return given;
  const storedPairs = stored === null ? [] : queryOf(stored).pairs.filter((p) => p.includes('='));
  const seen = new Map<string, number>();
  const kept = pairs.map((pair) => {
    const name = nameOf(pair);
    const nth = seen.get(name) ?? 0;
    seen.set(name, nth + 1);
    if (!isMasked(pair)) return pair;
    const found = storedPairs.filter((p) => nameOf(p) === name)[nth];
    if (found === undefined) {
      throw new DeskFailure(
        'bad-input',
        `The balance URL's ${name}=${MASKED_QUERY_VALUE} keeps a stored value, but none is stored under "${name}": type the value.`,
      );
    }
    return found;
  });
  return `${head}?${kept.join('&')}${hash}`;
}
