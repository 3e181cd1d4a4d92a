// How long a background text indexer waits after a batch: one rule for SQLite's indexer (a worker
// thread, which runs this function from its source) and the team's on PostgreSQL.
//
// A backlog is indexed at about half the time (a pause as long as the batch took). While the proxies
// write more than `busyRate` captures a second, the indexer leaves the cores to the captures: it does
// not index at all until `busyBacklogRows` rows wait (a load test's captures are indexed after it), and
// past that it takes about a hundredth, also when it has caught up. Keeping up with a load test took
// about 4% of a core at a hundredth (two cores, BENCHMARKS.md section 1), CPU the captures then lacked.
// A search tests the rows not indexed yet directly (text-search.ts), at 5 to 10 µs a row in SQLite for a
// word that must be looked for in all of them. A load the hundredth keeps up with holds the backlog at
// the bound, so a search pays for the bound's rows while it lasts; a heavier one grows it until the load
// ends. Below the busy rate the indexer keeps up as it goes.

export interface IndexerPace {
  /** Between two looks when there is nothing to index, or a batch has caught up while the log is quiet. */
  idleMs: number;
  /** Captures a second above which the log counts as busy. */
  busyRate: number;
  /** While busy, the pause after a batch is this many times as long as the batch took... */
  busyPause: number;
  /** ...and at most this long: a slow batch on a loaded machine would otherwise hold the index back for half a minute, also after the load. */
  busyMaxMs: number;
  /** While busy, nothing is indexed until this many rows wait. */
  busyBacklogRows: number;
}

/**
 * SQLite's indexer. The backlog bound is a whole load test's captures (the benchmark's 16,000, a ten
 * second load at 5,000 a second): at 10,000, the benchmark's load spent 7 to 9% more CPU a request,
 * the indexer's, moved after the load since (BENCHMARKS.md section 1). The price is the search's, on the
 * desk that searches, while a load lasts: 45,076 unindexed rows took 300 to 400 ms (section 2).
 */
export const INDEXER_PACE: IndexerPace = { idleMs: 250, busyRate: 100, busyPause: 99, busyMaxMs: 2_000, busyBacklogRows: 50_000 };

/**
 * A team's indexer: PostgreSQL tests an unindexed row through the index's own SQL functions, about 40 µs
 * a row (LIMITS.md), on the server every teammate's search and every proxy's write share. Its bound keeps
 * a search's direct part near 100 ms of that server's time.
 */
export const TEAM_INDEXER_PACE: IndexerPace = { ...INDEXER_PACE, busyBacklogRows: 2_500 };

/** The log's newest id, read at `at` (ms). */
export interface LogReading {
  newest: number;
  at: number;
}

/** Rows a second written between two readings. Self-contained: SQLite's worker evaluates its source. */
export function rowsPerSecondBetween(before: LogReading, now: LogReading): number {
  return (Math.max(0, now.newest - before.newest) * 1000) / Math.max(1, now.at - before.at);
}

/** What the indexer sees when it looks, before a batch. */
export interface Look {
  /** Rows after the last one indexed. */
  pending: number;
  /** How fast the log grew since the last look. */
  rowsPerSecond: number;
}

/**
 * Whether to leave this look's rows for later: the proxies are busy and the backlog is short of the bound.
 * Self-contained (no imports, no closures): SQLite's worker evaluates its source.
 */
export function waitsOutTheLoad(look: Look, p: IndexerPace): boolean {
  return look.rowsPerSecond > p.busyRate && look.pending < p.busyBacklogRows;
}

export interface BatchOutcome {
  /** How long the batch took. */
  ms: number;
  indexed: number;
  /** Rows left to index after it. */
  pending: number;
  /** How fast the log grew meanwhile. */
  rowsPerSecond: number;
}

/** Milliseconds to wait before the next batch. Self-contained (no imports, no closures): SQLite's worker evaluates its source. */
export function waitAfterBatch(b: BatchOutcome, p: IndexerPace): number {
  if (b.indexed <= 0) return p.idleMs;
  if (b.rowsPerSecond > p.busyRate) return Math.max(1, Math.ceil(Math.min(p.busyMaxMs, b.ms * p.busyPause)));
  return b.pending > 0 ? Math.max(1, Math.ceil(b.ms)) : p.idleMs;
}
