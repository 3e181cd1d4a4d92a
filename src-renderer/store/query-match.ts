// Whether a live exchange belongs in the list the user is looking at: the same filters the database
// applies in ExchangeStore.list, applied to one row, so a new capture shows up only where it would
// after a reload.
import type { ExchangeQuery, ExchangeSummary } from '../../src-main/shared/model';

export function matchesQuery(x: ExchangeSummary, q: ExchangeQuery): boolean {
  if (!q.allProfiles && q.profile !== undefined && x.profile !== q.profile) return false;
  const direction = q.direction ?? 'inbound';
  if (direction !== 'all' && x.direction !== direction) return false;
  if (q.kind && x.kind !== q.kind) return false;
  if (q.result && x.result !== q.result) return false;
  if (q.verdict && x.signature.verdict !== q.verdict) return false;
  if (q.depositId && x.depositId !== q.depositId) return false;
  if (q.userId && x.userId !== q.userId) return false;
  if (q.search && !matchesSearch(x, q.search)) return false;
  return true;
}

/** Characters a search needs to be a text search (the store's MIN_TEXT_SEARCH); shorter: an id prefix. */
const MIN_TEXT_SEARCH = 3;

/**
 * A search on one live row. The database searches the whole stored text (headers and bodies too), which
 * a summary does not carry: a live row joins when the fields it does carry contain the text (its path,
 * ids, game, result), and a row that matches only in its headers or bodies shows on the next load.
 */
function matchesSearch(x: ExchangeSummary, search: string): boolean {
  if ([...search].length < MIN_TEXT_SEARCH) return Boolean(x.depositId?.startsWith(search) || x.userId?.startsWith(search));
  const needle = search.toLowerCase();
  return [x.method, x.path, x.target, x.depositId, x.userId, x.gameId, x.result, x.tournamentId].some((field) => field?.toLowerCase().includes(needle));
}

/** Index of the row with this id in a list sorted by id, newest first; -1 when absent. */
export function indexOfId(items: readonly ExchangeSummary[], id: number): number {
  let lo = 0;
  let hi = items.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = items[mid]!.id;
    if (at === id) return mid;
    if (at > id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Folds one exchange event into a newest-first list: replaces the row it updates (or drops it when it
 * no longer matches the filters: a capture verified again, say), or puts a new row that matches the
 * filters in its place. Returns the same array when nothing changed.
 */
export function mergeExchange(items: readonly ExchangeSummary[], x: ExchangeSummary, q: ExchangeQuery, complete: boolean): readonly ExchangeSummary[] {
  const at = indexOfId(items, x.id);
  if (at !== -1) {
    const next = items.slice();
    if (matchesQuery(x, q)) next[at] = x;
    else next.splice(at, 1);
    return next;
  }
  if (!matchesQuery(x, q)) return items;
  const top = items[0];
  if (top === undefined || x.id > top.id) return [x, ...items];
  // Older than the newest row: it belongs inside the loaded range only if the list reaches below it.
  const bottom = items[items.length - 1]!;
  if (x.id < bottom.id && !complete) return items;
  const next = items.slice();
  let i = 0;
  while (i < next.length && next[i]!.id > x.id) i++;
  next.splice(i, 0, x);
  return next;
}

/**
 * Folds a burst of exchange events into the list at once: the same result as mergeExchange applied to
 * each in order, but one copy of the list for the whole burst instead of one per event. Under a stream
 * of captures (two events each: the request, then its response) the per-event copies cost O(rows)
 * each, which a long live list cannot afford. Returns the same array when nothing changed.
 *
 * In mergeExchange's terms: a row already listed takes its last event; a row not listed joins on the
 * first of its events that matches the filters while the list is empty, or above its bottom, or whole
 * (`complete`), and then takes its last event too. Only a joining row can lower the bottom.
 */
export function mergeExchanges(
  items: readonly ExchangeSummary[],
  xs: readonly ExchangeSummary[],
  q: ExchangeQuery,
  complete: boolean,
): readonly ExchangeSummary[] {
  if (xs.length === 1) return mergeExchange(items, xs[0]!, q, complete);
  // A row leaving the list (it stopped matching the filters) is rare: such a burst is folded one event at a time.
  const matching = new Set<number>();
  for (const x of xs) if (matchesQuery(x, q)) matching.add(x.id);
  if (xs.some((x) => !matchesQuery(x, q) && (matching.has(x.id) || indexOfId(items, x.id) !== -1))) {
    return xs.reduce<readonly ExchangeSummary[]>((list, x) => mergeExchange(list, x, q, complete), items);
  }
  const latest = new Map<number, ExchangeSummary>();
  for (const x of xs) latest.set(x.id, x);
  let replaced: ExchangeSummary[] | null = null;
  const joined = new Set<number>();
  let bottom = items.length > 0 ? items[items.length - 1]!.id : null;
  for (const x of xs) {
    const at = indexOfId(items, x.id);
    if (at !== -1) {
      replaced ??= items.slice();
      replaced[at] = latest.get(x.id)!;
    } else if (!joined.has(x.id) && matchesQuery(x, q) && (bottom === null || x.id > bottom || complete)) {
      joined.add(x.id);
      bottom = bottom === null ? x.id : Math.min(bottom, x.id);
    }
  }
  const base: readonly ExchangeSummary[] = replaced ?? items;
  if (joined.size === 0) return base;
  const adding = [...joined].sort((a, b) => b - a).map((id) => latest.get(id)!);
  const merged: ExchangeSummary[] = [];
  let i = 0;
  for (const row of base) {
    while (i < adding.length && adding[i]!.id > row.id) merged.push(adding[i++]!);
    merged.push(row);
  }
  while (i < adding.length) merged.push(adding[i++]!);
  return merged;
}
