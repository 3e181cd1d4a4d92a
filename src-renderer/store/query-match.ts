// Whether a live exchange belongs in the list the user is looking at: the same filters the database
// applies in ExchangeStore.list, applied to one row, so a new capture shows up only where it would
// after a reload.
import type { ExchangeQuery, ExchangeSummary } from '../../src-main/shared/model';

export function matchesQuery(x: ExchangeSummary, q: ExchangeQuery): boolean {
  const direction = q.direction ?? 'inbound';
  if (direction !== 'all' && x.direction !== direction) return false;
  if (q.kind && x.kind !== q.kind) return false;
  if (q.result && x.result !== q.result) return false;
  if (q.verdict && x.signature.verdict !== q.verdict) return false;
  if (q.depositId && x.depositId !== q.depositId) return false;
  if (q.userId && x.userId !== q.userId) return false;
  if (q.search) {
    const s = q.search;
    if (!(x.depositId?.startsWith(s) || x.userId?.startsWith(s))) return false;
  }
  return true;
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
 * Folds one exchange event into a newest-first list: replaces the row it updates, or puts a new row
 * that matches the filters in its place. Returns the same array when nothing changed.
 */
export function mergeExchange(items: readonly ExchangeSummary[], x: ExchangeSummary, q: ExchangeQuery, complete: boolean): readonly ExchangeSummary[] {
  const at = indexOfId(items, x.id);
  if (at !== -1) {
    const next = items.slice();
    next[at] = x;
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
