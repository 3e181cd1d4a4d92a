// Finds keys that appear twice in the same JSON object. JSON.parse keeps the last value silently,
// other parsers keep the first or refuse the body, so the operator may read another amount than the
// desk shows. A single linear scan over text that JSON.parse already accepted; iterative (explicit
// stack) so that deeply nested bodies cannot overflow the call stack. Its output is bounded whatever the
// body: at most MAX_DUPLICATE_KEYS reports, paths that stop at MAX_JSON_DEPTH levels, keys shortened.
import { indexPath, pathOf } from './finding-text';
import { MAX_JSON_DEPTH } from './json-body';

/** The search stops after this many duplicated keys: a body with more is hostile, and these show it. */
export const MAX_DUPLICATE_KEYS = 20;
/** Keys longer than this are shortened (with "…") in reports and paths. */
export const MAX_REPORTED_KEY_LENGTH = 64;
/** What a path says past MAX_JSON_DEPTH levels, instead of one step per level. */
export const DEEP_PATH_SUFFIX = '…';

function shortKey(key: string): string {
  return key.length > MAX_REPORTED_KEY_LENGTH ? `${key.slice(0, MAX_REPORTED_KEY_LENGTH)}…` : key;
}

export interface DuplicateKey {
  /** Path of the duplicated member, e.g. '$.amount'; past MAX_JSON_DEPTH levels it ends in '…'. */
  path: string;
  /** The key, shortened to MAX_REPORTED_KEY_LENGTH characters (with '…'). */
  key: string;
  count: number;
}

type Frame =
  { kind: 'object'; path: string; counts: Map<string, number>; key: string | null; expectKey: boolean } | { kind: 'array'; path: string; index: number };

/**
 * Assumes `text` is valid JSON (call it after JSON.parse succeeded). Returns at most `limit` duplicated
 * keys, in the order their objects close, and stops scanning once it has them.
 */
export function findDuplicateKeys(text: string, limit = MAX_DUPLICATE_KEYS): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const stack: Frame[] = [];

  // Past MAX_JSON_DEPTH every level shares its parent's path plus one '…': building a path per level
  // would cost memory and time quadratic in the depth.
  const valuePath = (): string => {
    const top = stack[stack.length - 1];
    if (top === undefined) return '$';
    if (stack.length > MAX_JSON_DEPTH) return top.path.endsWith(DEEP_PATH_SUFFIX) ? top.path : `${top.path}${DEEP_PATH_SUFFIX}`;
    return top.kind === 'array' ? indexPath(top.path, top.index) : pathOf(top.path, shortKey(top.key ?? ''));
  };

  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x7b /* { */) {
      stack.push({ kind: 'object', path: valuePath(), counts: new Map(), key: null, expectKey: true });
    } else if (c === 0x5b /* [ */) {
      stack.push({ kind: 'array', path: valuePath(), index: 0 });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      const closed = stack.pop();
      if (closed?.kind === 'object') {
        for (const [key, count] of closed.counts) {
          if (count <= 1) continue;
          const path = closed.path.endsWith(DEEP_PATH_SUFFIX) ? closed.path : pathOf(closed.path, shortKey(key));
          found.push({ path, key: shortKey(key), count });
          if (found.length >= limit) return found;
        }
      }
    } else if (c === 0x2c /* , */) {
      if (top?.kind === 'array') top.index++;
      else if (top?.kind === 'object') top.expectKey = true;
    } else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      if (top?.kind === 'object' && top.expectKey) {
        // Decode the key so that "a" and "\u0061" count as the same key, as parsers see them; a key
        // without a backslash is its own text (the common case, and decoding each costs a megabyte ~20 ms).
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        top.counts.set(key, (top.counts.get(key) ?? 0) + 1);
        top.key = key;
        top.expectKey = false;
      }
      i = end;
    }
  }
  return found;
}

/** Index of the closing quote of the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return text.length - 1; // cannot happen in valid JSON; end the scan safely
    let backslashes = 0;
    for (let j = quote - 1; j > start && text.charCodeAt(j) === 0x5c; j--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    i = quote + 1;
  }
}
