// While the proxy runs, WAL checkpoints happen on a worker thread instead of inside the commits of the
// capture path. SQLite's automatic checkpoint (every 1000 WAL pages) runs in whichever commit crosses
// the line, copying pages back into the database on the event loop; under load it was half of what a
// capture cost. A PASSIVE checkpoint on the worker's own connection runs beside the writer without
// blocking it, at a fixed period, so each hot page is copied once a period instead of once per 1000
// pages. Durability is untouched: a commit is durable once it is in the WAL, checkpointed or not.
// Should the worker fail to start or die, the connection's automatic checkpoint is switched back on.
//
// PASSIVE checkpoints alone never let the log start over under a steady load: it starts over only when
// a writer begins with every frame copied back, and a copy that takes a few milliseconds always has
// newer frames behind it. At 300 captures a second on a log of a million rows the log grew by 22 MiB a
// second, without end (each capture changes a leaf of every index). Once it is past a bound, the worker
// follows its copy with a RESTART checkpoint (wal-bound.ts does the same between a prune's batches):
// it takes the write lock for the frames written since the copy and lets the next writer start the
// log over. The RESTART also flushes the database file, every page copied since the last flush: done
// under the lock, that held captures back 75 to 120 ms each time (measured on that log), so the worker
// flushes the file first, without the lock (flush-handle.ts), and the RESTART has little left to do.
// The copy and its flush take long enough for another busy writer (a prune) to add many frames, so the
// worker copies and flushes again until a pass finds little new (FLUSH_PASSES at most), and flushes
// that too before the RESTART: with one flush, the second copy's pages were flushed under the lock, and
// captures waited 175 ms beside a prune of a million rows.
// Its waits are capped at a few milliseconds; a reader that stays longer makes it give up until the
// next period, and the proxy's own commits never block on it (they try the lock and come back on a
// timer: write-lock.ts). While it waits for the readers, though, it holds the write lock, so each try
// beside a reader that stays holds every capture back for the whole cap. A desk that searches keeps a
// reading thread in the log for seconds at a time, and a try every period then held captures 20 ms
// twice a second, every one in vain (36 of 36 beside a search without pause on a million rows): the
// RESTART is not tried while the desk's own reads are under way (`readsUnderWay`: its reading threads',
// and its export thread's reads of an export's rows, Store.readElsewhere). The copy goes on;
// the log starts over once the reads pause. A reader of another process can still make a try wait.
import { Worker } from 'node:worker_threads';
import type { Db } from './open';
import { flushHandle } from './flush-handle';
import { WAL_RESTART_FRAMES } from './wal-bound';
import { betterSqlitePath, closeWorker } from './worker-module';

const PERIOD_MS = 500;
/** How long the RESTART checkpoint may wait for the write lock, and then for readers. */
const RESTART_WAIT_MS = 20;
const BUSY_TIMEOUT_MS = 1_000;
/** Copy-and-flush passes before a RESTART, at most; a pass that copies fewer frames than SETTLED_FRAMES ends them. */
const FLUSH_PASSES = 4;
const SETTLED_FRAMES = 256;

export interface CheckpointerOptions {
  nativeBinding?: string | undefined;
  /** Frames the log may hold before it is made to start over (tests set a small bound). */
  restartFrames?: number;
  /** How often the log is copied back (tests set a short one). */
  periodMs?: number;
  /**
   * Whether the desk's threads have a read of the file under way (the reading threads', the export
   * thread's), asked each period: a RESTART then would hold the write lock waiting for them. Not given:
   * none are known.
   */
  readsUnderWay?: () => boolean;
}

/** A period's work, as the worker is asked for it: whether it may make the log start over. */
interface CheckpointAsk {
  restartAllowed: boolean;
}

// CommonJS, evaluated in the worker: no file to bundle or find at run time.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const db = new Database(workerData.file, { fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) });
const fs = require('node:fs');
const o = workerData;
db.pragma('busy_timeout = ' + o.busyTimeoutMs);
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const copied = db.pragma('wal_checkpoint(PASSIVE)')[0];
    let restarted = false;
    const due = copied && copied.log >= o.restartFrames;
    if (due && !message.restartAllowed) return void parentPort.postMessage({ restarted, deferred: true });
    if (due) {
      let done = copied.checkpointed;
      for (let pass = 0; pass < o.flushPasses; pass++) {
        if (o.flushFd !== null) fs.fdatasyncSync(o.flushFd);
        const again = db.pragma('wal_checkpoint(PASSIVE)')[0];
        const fresh = again.checkpointed - done;
        done = again.checkpointed;
        if (fresh < o.settledFrames) break;
      }
      if (o.flushFd !== null) fs.fdatasyncSync(o.flushFd);
      db.pragma('busy_timeout = ' + o.restartWaitMs);
      try {
        restarted = db.pragma('wal_checkpoint(RESTART)')[0].busy === 0;
      } finally {
        db.pragma('busy_timeout = ' + o.busyTimeoutMs);
      }
    }
    parentPort.postMessage({ restarted });
  } catch (err) {
    parentPort.postMessage({ failed: String(err && err.message) });
  }
});
`;

export class Checkpointer {
  private worker: Worker | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private restored = false;
  private restarts = 0;
  private deferrals = 0;

  private constructor(
    private readonly db: Db,
    private readonly previous: number,
  ) {}

  /** Takes over checkpointing for `db`; returns null (and changes nothing) where that cannot apply. */
  static start(db: Db, options: CheckpointerOptions = {}): Checkpointer | null {
    if (db.memory || db.readonly) return null;
    const modulePath = betterSqlitePath();
    if (modulePath === null) return null;
    const previous = db.pragma('wal_autocheckpoint', { simple: true }) as number;
    const c = new Checkpointer(db, previous);
    try {
      const workerData = {
        modulePath,
        file: db.name,
        nativeBinding: options.nativeBinding ?? null,
        restartFrames: options.restartFrames ?? WAL_RESTART_FRAMES,
        restartWaitMs: RESTART_WAIT_MS,
        flushFd: flushHandle(db.name),
        busyTimeoutMs: BUSY_TIMEOUT_MS,
        flushPasses: FLUSH_PASSES,
        settledFrames: SETTLED_FRAMES,
      };
      c.worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    } catch {
      return null;
    }
    c.worker.unref();
    c.worker.on('message', (m: { restarted?: boolean; deferred?: boolean }) => {
      c.busy = false;
      if (m.restarted) c.restarts++;
      if (m.deferred) c.deferrals++;
    });
    c.worker.on('error', () => c.fallBack());
    c.worker.on('exit', () => c.fallBack());
    db.pragma('wal_autocheckpoint = 0');
    c.timer = setInterval(() => {
      if (c.busy || !c.worker) return;
      c.busy = true;
      const ask: CheckpointAsk = { restartAllowed: !(options.readsUnderWay?.() ?? false) };
      c.worker.postMessage(ask);
    }, options.periodMs ?? PERIOD_MS);
    c.timer.unref();
    return c;
  }

  /** How many times the log was made to start over (diagnostics, tests). */
  restartCount(): number {
    return this.restarts;
  }

  /** How many times a due RESTART was left for a later period because the desk's reads were under way (diagnostics, tests). */
  deferredCount(): number {
    return this.deferrals;
  }

  /** Hands checkpointing back to the connection and ends the worker. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.fallBack();
    if (!worker) return;
    await closeWorker(worker);
  }

  private fallBack(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.worker = null;
    if (this.restored) return;
    this.restored = true;
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${this.previous}`);
  }
}
