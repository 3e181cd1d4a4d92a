// The text index's backlog indexed by the background indexer (src-main/core/store/text-indexer.ts, its
// worker thread and connection) while captures keep arriving on the main connection, as the proxy
// writes them: a few captures a commit (insert + complete), every few ms, with the WAL checkpointer
// running as it does beside the proxy. Reports how long the backlog took and what each capture commit
// cost meanwhile (waiting for the lock included): the indexer's batches must leave the write path a lock
// to take.
import { performance } from 'node:perf_hooks';
import { connectionOf, type Store } from '../../src-main/core/store/sqlite';
import { TextIndexer } from '../../src-main/core/store/sqlite/text-indexer';
import { generateRows } from './exchange-rows';
import { percentile } from './stats';

export interface BacklogRun {
  /** Rows that were not indexed when the indexer started. */
  backlog: number;
  ms: number;
  /** Captures written while it indexed. */
  captures: number;
  commitP50: number;
  commitP99: number;
  commitMax: number;
  /** Once the writes stopped: how long the indexer took to index the captures written meanwhile. */
  catchUpMs: number;
}

/**
 * Captures a commit, and the pause between two commits: at most 80 captures a second, a steady stream
 * below the rate at which the indexer counts the proxy as busy and all but stops (text-indexer.ts).
 */
const GROUP = 2;
const EVERY_MS = 25;

export async function indexBacklogUnderWrites(store: Store, log: (line: string) => void): Promise<BacklogRun | null> {
  const db = connectionOf(store);
  const target = db.prepare('SELECT coalesce(max(id), 0) FROM exchanges').pluck().get() as number;
  const upTo = db.prepare('SELECT indexed_upto FROM exchange_text_state').pluck();
  const backlog = target - (upTo.get() as number);
  if (backlog <= 0) return null;
  const indexer = TextIndexer.start(db);
  if (!indexer) throw new Error('the background indexer did not start');
  // As under serve: WAL checkpoints on their own worker, not in whichever capture commit crosses the line.
  const checkpointer = store.checkpointInBackground();
  const rows = generateRows(10_000_000, 99, []);
  const commit = db.transaction(() => {
    for (let k = 0; k < GROUP; k++) {
      const { row, completion } = rows.next().value!;
      store.exchanges.complete(store.exchanges.insert({ ...row, sourceId: null }).id, completion);
    }
  });
  const commits: number[] = [];
  const t0 = performance.now();
  let lastLog = t0;
  try {
    while ((upTo.get() as number) < target) {
      const failure = indexer.lastFailure();
      if (failure) throw new Error(`the background indexer failed: ${failure}`);
      const t = performance.now();
      commit.immediate();
      commits.push(performance.now() - t);
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        log(`  text index: ${(upTo.get() as number).toLocaleString('en-US')} of ${target.toLocaleString('en-US')} rows indexed...`);
      }
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    }
    const ms = performance.now() - t0;
    // The captures written meanwhile are the newest rows, indexed last: wait for them too, so the
    // queries after this read a caught-up index (the steady state under a running proxy).
    const newest = db.prepare('SELECT coalesce(max(id), 0) FROM exchanges').pluck().get() as number;
    const t1 = performance.now();
    while ((upTo.get() as number) < newest) {
      if (performance.now() - t1 > 600_000) throw new Error('the background indexer did not catch up within 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return {
      backlog,
      ms,
      catchUpMs: performance.now() - t1,
      captures: commits.length * GROUP,
      commitP50: percentile(commits, 50),
      commitP99: percentile(commits, 99),
      commitMax: commits.reduce((m, x) => Math.max(m, x), 0),
    };
  } finally {
    await Promise.all([indexer.stop(), checkpointer?.stop()]);
  }
}
