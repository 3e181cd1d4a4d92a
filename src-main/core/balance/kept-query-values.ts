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

/**
 * The URL to store: `given` with each masked query value replaced by the value `stored` has under the same
 * name (the n-th masked `key` takes the n-th stored `key`). Throws bad-input, naming only the parameter,
 * when there is no stored value to keep.
 */
export function withKeptQueryValues(given: string, stored: string | null): string {
  const { head, pairs, hash } = queryOf(given);
  if (!pairs.some(isMasked)) return given;
  const storedPairs = stored === null ? [] : queryOf(stored).pairs;
  const used = new Set<number>();
  const kept = pairs.map((pair) => {
    if (!isMasked(pair)) return pair;
    const name = nameOf(pair);
    const at = storedPairs.findIndex((p, i) => !used.has(i) && p.includes('=') && nameOf(p) === name);
    if (at < 0) {
      throw new DeskFailure(
        'bad-input',
        `The balance URL's ${name}=${MASKED_QUERY_VALUE} keeps a stored value, but none is stored under "${name}": type the value.`,
      );
    }
    used.add(at);
    return storedPairs[at]!;
  });
  return `${head}?${kept.join('&')}${hash}`;
}
