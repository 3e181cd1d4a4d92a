// While the desk captures, the text index is kept up to date on a worker thread with its own connection,
// so tokenizing captures (about a millisecond a row) never runs on the proxy's event loop. Batches are
// sized to hold the write lock about BATCH_TARGET_MS, and the worker pauses between two batches as long
// as the batch took: a capture that finds the lock taken waits one short batch, and the proxy has the
// lock at least half the time while a backlog is indexed (a million rows after an upgrade, say). While
// the proxy is busy the worker waits for the load to end, or past a bound takes a hundredth
// (indexer-pace.ts). Once caught up it looks again every idle interval, without the write lock when
// there is nothing to do. A search never waits for it: what is not indexed yet is read directly
// (text-search.ts). Should the worker fail to start or die, searches stay right, only slower as the
// unindexed part grows. While a prune deletes, the worker stands aside (text-index-aside.ts).
import { Worker } from 'node:worker_threads';
import type { Db } from './open';
import { PRUNE_DELETING_UNTIL } from './text-index-aside';
import { IN_FLIGHT_WAIT_MS, IN_FLIGHT_WAIT_ROWS } from '../rows/in-flight';
import { MAX_BATCH_ROWS, TEXT_INDEX_SQL } from './text-index';
import { INDEXER_PACE, rowsPerSecondBetween, waitAfterBatch, waitsOutTheLoad, type IndexerPace } from '../rows/indexer-pace';
import { betterSqlitePath, closeWorker } from './worker-module';

/** How long one batch should hold the write lock (prune's batches aim at 15 ms: see retention.ts). */
const BATCH_TARGET_MS = 10;
const MIN_BATCH_ROWS = 10;
/** After an error other than a busy database (a full disk, say): wait, then try again. */
const RETRY_MS = 1_000;

// CommonJS, evaluated in the worker: no file to bundle or find at run time. The batch is the same as
// TextIndex.batch (text-index.ts), with the statements passed in.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const o = workerData;
const db = new Database(o.file, { fileMustExist: true, ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}) });
db.pragma('busy_timeout = 1000');
const s = {};
for (const [k, sql] of Object.entries(o.sql)) s[k] = db.prepare(sql);
const asideUntil = db.prepare('SELECT value FROM settings WHERE key = ?').pluck();
const waitAfterBatch = ${waitAfterBatch.toString()};
const waitsOutTheLoad = ${waitsOutTheLoad.toString()};
const rowsPerSecondBetween = ${rowsPerSecondBetween.toString()};
const batch = db.transaction((rows, cutoff) => {
  const after = s.upTo.pluck().get();
  const upTo = s.bound.pluck().get({ after, rows, cutoff, waitRows: o.waitRows });
  if (upTo > after) {
    s.fill.run({ after, upTo });
    s.listInFlight.run({ after, upTo });
    s.advance.run({ upTo });
  }
  s.indexLateAnswers.run();
  s.unlistAnswered.run();
  return { indexed: Math.max(0, upTo - after), upTo: Math.max(upTo, after), pending: s.maxId.pluck().get() - Math.max(upTo, after) };
});
let rows = 100;
let closing = false;
let timer = null;
let seen = null;
let standingAside = false;
let waitingOutLoad = false;
/** Rows a second written since the last look: how busy the proxy is. */
function captureRate() {
  const now = { newest: s.maxId.pluck().get(), at: performance.now() };
  const rate = seen === null ? 0 : rowsPerSecondBetween(seen, now);
  seen = now;
  return rate;
}
function waitOutLoad(waiting) {
  if (waiting !== waitingOutLoad) parentPort.postMessage({ load: (waitingOutLoad = waiting) });
}
function step() {
  timer = null;
  if (closing) return;
  let wait = o.pace.idleMs;
  try {
    const aside = Number(asideUntil.get(o.asideKey) ?? 0) - Date.now();
    if (aside > 0 || standingAside) {
      standingAside = aside > 0;
      parentPort.postMessage({ aside: standingAside });
    }
    if (standingAside) {
      timer = setTimeout(step, Math.min(wait, Math.ceil(aside)));
      return;
    }
    const rowsPerSecond = captureRate();
    if (!s.work.pluck().get()) {
      waitOutLoad(false);
      timer = setTimeout(step, wait);
      return;
    }
    waitOutLoad(waitsOutTheLoad({ pending: seen.newest - s.upTo.pluck().get(), rowsPerSecond }, o.pace));
    if (waitingOutLoad) {
      timer = setTimeout(step, wait);
      return;
    }
    const t0 = performance.now();
    const r = batch.immediate(rows, new Date(Date.now() - o.waitMs).toISOString());
    const ms = performance.now() - t0;
    if (r.indexed > 0) {
      const scaled = ms <= 0 ? rows * 2 : Math.floor((rows * o.targetMs) / ms);
      rows = Math.max(o.minRows, Math.min(o.maxRows, rows * 2, scaled));
    }
    parentPort.postMessage({ indexedUpto: r.upTo, pending: r.pending, indexed: r.indexed, ms });
    wait = waitAfterBatch({ ms, indexed: r.indexed, pending: r.pending, rowsPerSecond }, o.pace);
  } catch (err) {
    const busy = err && (err.code === 'SQLITE_BUSY' || err.code === 'SQLITE_LOCKED');
    if (!busy) parentPort.postMessage({ failed: String(err && err.message) });
    wait = busy ? o.pace.idleMs : o.retryMs;
  }
  timer = setTimeout(step, wait);
}
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  closing = true;
  if (timer) clearTimeout(timer);
  db.close();
  parentPort.close();
});
// The first look measures the rate from here: one right away would see a rate over no time, taken as
// zero (a quiet log), and index while a load goes on.
captureRate();
timer = setTimeout(step, o.pace.idleMs);
`;

export interface IndexerProgress {
  /** indexed_upto after the last batch. */
  indexedUpto: number;
  /** Rows after it then. */
  pending: number;
}

export class TextIndexer {
  private worker: Worker | null = null;
  private last: IndexerProgress | null = null;
  private failure: string | null = null;
  private aside = false;
  private load = false;

  private constructor() {}

  /**
   * Starts indexing `db`'s file in the background; null (nothing started) for a database without a file
   * or a worker. `pace`: INDEXER_PACE but in tests.
   */
  static start(db: Db, nativeBinding?: string, pace: IndexerPace = INDEXER_PACE): TextIndexer | null {
    if (db.memory || db.readonly) return null;
    const modulePath = betterSqlitePath();
    if (modulePath === null) return null;
    const indexer = new TextIndexer();
    const workerData = {
      modulePath,
      file: db.name,
      nativeBinding: nativeBinding ?? null,
      sql: TEXT_INDEX_SQL,
      waitRows: IN_FLIGHT_WAIT_ROWS,
      waitMs: IN_FLIGHT_WAIT_MS,
      targetMs: BATCH_TARGET_MS,
      minRows: MIN_BATCH_ROWS,
      maxRows: MAX_BATCH_ROWS,
      pace,
      retryMs: RETRY_MS,
      asideKey: PRUNE_DELETING_UNTIL,
    };
    try {
      indexer.worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    } catch {
      return null;
    }
    indexer.worker.unref();
    indexer.worker.on('message', (m: IndexerProgress | { failed: string } | { aside: boolean } | { load: boolean }) => {
      if ('failed' in m) return void (indexer.failure = m.failed);
      if ('aside' in m) return void (indexer.aside = m.aside);
      if ('load' in m) return void (indexer.load = m.load);
      indexer.last = { indexedUpto: m.indexedUpto, pending: m.pending };
    });
    indexer.worker.on('error', (err) => {
      indexer.failure = err.message;
      indexer.worker = null;
    });
    indexer.worker.on('exit', () => (indexer.worker = null));
    return indexer;
  }

  /** The last batch's outcome (null before the first). */
  progress(): IndexerProgress | null {
    return this.last;
  }

  /** Whether the worker last stood aside for a prune (text-index-aside.ts) instead of indexing. */
  standingAside(): boolean {
    return this.aside;
  }

  /** Whether the worker last left the rows waiting for the proxies' load to end (indexer-pace.ts). */
  waitingOutLoad(): boolean {
    return this.load;
  }

  /** The last error the worker met (null: none), for diagnostics. */
  lastFailure(): string | null {
    return this.failure;
  }

  /** Ends the worker: the batch under way commits, then its connection closes. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    await closeWorker(worker);
  }
}
