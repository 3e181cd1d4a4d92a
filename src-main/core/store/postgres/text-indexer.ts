// Keeps a team's text index up to date while a proxy writes the log: batches (text-index.ts) on a
// connection of its own, so the proxy's writes never wait for it. The work happens in the database
// (the text is made there), not on this process's event loop. Each proxy on the database runs one;
// only one batch runs at a time across them (the batch's advisory lock), the others skip their turn.
//
// Batches are sized to take about BATCH_TARGET_MS and followed by a pause as long as the batch took,
// so a backlog (a copied log, say) takes at most about half of one of the database's cores; while the
// proxies are busy, nothing until a bound of rows waits, then about a hundredth (the same rule as
// SQLite's indexer, indexer-pace.ts: the text is made and indexed on the database's cores, which the
// captures' commits need then). Once caught up it looks again every idle interval, without a lock when
// there is nothing to do. A search never waits for it (rows not indexed are tested directly): should it
// fail, searches stay right, only slower.
import type pg from 'pg';
import { TEAM_INDEXER_PACE as PACE, rowsPerSecondBetween, waitAfterBatch, waitsOutTheLoad, type LogReading } from '../rows/indexer-pace';
import { indexTextBatch, lookAtTextIndex, MAX_BATCH_ROWS } from './text-index';

const BATCH_TARGET_MS = 50;
const MIN_BATCH_ROWS = 10;
/** After a failure (the database away, say): wait, then connect again. */
const RETRY_MS = 1_000;

export class PgTextIndexer {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private rows = 100;
  private failure: string | null = null;
  private readonly growth = new LogGrowth();

  private constructor(private readonly connect: () => Promise<pg.Client>) {}

  /** Starts indexing in the background over connections from `connect`. */
  static start(connect: () => Promise<pg.Client>): PgTextIndexer {
    const indexer = new PgTextIndexer(connect);
    indexer.schedule(0);
    return indexer;
  }

  /** The last error met (null: none), for diagnostics. */
  lastFailure(): string | null {
    return this.failure;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.step().then((wait) => {
        this.running = null;
        this.schedule(wait);
      });
    }, ms);
    this.timer.unref();
  }

  /** One turn; how long to wait before the next. */
  private async step(): Promise<number> {
    try {
      this.client ??= await this.connect();
      const look = await lookAtTextIndex(this.client);
      const rowsPerSecond = this.growth.rate(look.newest, performance.now());
      // The first look only starts the measure: a rate over no time says nothing of a load going on.
      if (rowsPerSecond === null) return PACE.idleMs;
      if (!look.work || waitsOutTheLoad({ pending: look.pending, rowsPerSecond }, PACE)) return PACE.idleMs;
      const t0 = performance.now();
      const r = await indexTextBatch(this.client, this.rows, false);
      const ms = performance.now() - t0;
      if (r.skipped) return PACE.idleMs;
      if (r.indexed > 0)
        this.rows = Math.max(MIN_BATCH_ROWS, Math.min(MAX_BATCH_ROWS, this.rows * 2, Math.floor((this.rows * BATCH_TARGET_MS) / Math.max(1, ms))));
      this.failure = null;
      return waitAfterBatch({ ms, indexed: r.indexed, pending: r.pending, rowsPerSecond }, PACE);
    } catch (err) {
      this.failure = err instanceof Error ? err.message : String(err);
      const client = this.client;
      this.client = null;
      await client?.end().catch(() => undefined);
      return RETRY_MS;
    }
  }

  /** Ends the indexer: the batch under way finishes, then its connection closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

/** How fast the log grows: the newest id at one look against the last. */
export class LogGrowth {
  private last: LogReading | null = null;

  /** Rows a second written since the last look (null at the first); `at` in ms. */
  rate(newest: number, at: number): number | null {
    const before = this.last;
    this.last = { newest, at };
    return before === null ? null : rowsPerSecondBetween(before, this.last);
  }
}
