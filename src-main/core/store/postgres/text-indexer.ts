// Keeps a team's text index up to date while a proxy writes the log: batches (text-index.ts) on a
// connection of its own, so the proxy's writes never wait for it. The work happens in the database
// (the text is made there), not on this process's event loop. Each proxy on the database runs one;
// only one batch runs at a time across them (the batch's advisory lock), the others skip their turn.
//
// Batches are sized to take about BATCH_TARGET_MS and followed by a pause as long as the batch took,
// so a backlog (a copied log, say) takes at most about half of one of the database's cores; while the
// proxies write more than BUSY_CAPTURES_PER_SECOND, a hundredth (as SQLite's indexer does: the text is
// made and indexed on the database's cores, which the captures' commits need then). Once caught
// up it looks again every IDLE_MS, without a lock when there is nothing to do. A search never waits
// for it (rows not indexed are tested directly): should it fail, searches stay right, only slower.
import type pg from 'pg';
import { indexTextBatch, MAX_BATCH_ROWS, textIndexHasWork } from './text-index';

const BATCH_TARGET_MS = 50;
const MIN_BATCH_ROWS = 10;
const IDLE_MS = 250;
/** After a failure (the database away, say): wait, then connect again. */
const RETRY_MS = 1_000;
/** Captures a second (every proxy's) above which the log counts as busy. */
const BUSY_CAPTURES_PER_SECOND = 100;
/** While busy, the pause after a batch is this many times as long as the batch took. */
const BUSY_PAUSE_FACTOR = 99;

export class PgTextIndexer {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private rows = 100;
  private failure: string | null = null;
  /** The rows after indexed_upto after the last batch, and when: how fast the log grows. */
  private last: { pending: number; at: number } | null = null;

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
      if (!(await textIndexHasWork(this.client))) return IDLE_MS;
      const t0 = performance.now();
      const r = await indexTextBatch(this.client, this.rows, false);
      const ms = performance.now() - t0;
      if (r.skipped) return IDLE_MS;
      if (r.indexed > 0)
        this.rows = Math.max(MIN_BATCH_ROWS, Math.min(MAX_BATCH_ROWS, this.rows * 2, Math.floor((this.rows * BATCH_TARGET_MS) / Math.max(1, ms))));
      this.failure = null;
      const pause = this.captureRate(r.indexed, r.pending) > BUSY_CAPTURES_PER_SECOND ? BUSY_PAUSE_FACTOR : 1;
      return r.indexed > 0 && r.pending > 0 ? Math.max(1, Math.ceil(ms * pause)) : IDLE_MS;
    } catch (err) {
      this.failure = err instanceof Error ? err.message : String(err);
      const client = this.client;
      this.client = null;
      await client?.end().catch(() => undefined);
      return RETRY_MS;
    }
  }

  /** Rows a second written since the last batch: what it left pending, against what this one indexed and left. */
  private captureRate(indexed: number, pending: number): number {
    const at = performance.now();
    const before = this.last;
    this.last = { pending, at };
    if (before === null) return 0;
    return (Math.max(0, indexed + pending - before.pending) * 1000) / Math.max(1, at - before.at);
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
