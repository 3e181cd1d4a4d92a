// While the proxy runs, WAL checkpoints happen on a worker thread instead of inside the commits of the
// capture path. SQLite's automatic checkpoint (every 1000 WAL pages) runs in whichever commit crosses
// the line, copying pages back into the database on the event loop; under load it was half of what a
// capture cost. A PASSIVE checkpoint on the worker's own connection runs beside the writer without
// blocking it, at a fixed period, so each hot page is copied once a period instead of once per 1000
// pages. Durability is untouched: a commit is durable once it is in the WAL, checkpointed or not.
// Should the worker fail to start or die, the connection's automatic checkpoint is switched back on.
import { Worker } from 'node:worker_threads';
import type { Db } from './open';
import { betterSqlitePath, closeWorker } from './worker-module';

const PERIOD_MS = 500;

// CommonJS, evaluated in the worker: no file to bundle or find at run time.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const db = new Database(workerData.file, { fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) });
db.pragma('busy_timeout = 1000');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage('done');
  } catch (err) {
    parentPort.postMessage('failed: ' + (err && err.message));
  }
});
`;

export class Checkpointer {
  private worker: Worker | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private restored = false;

  private constructor(
    private readonly db: Db,
    private readonly previous: number,
  ) {}

  /** Takes over checkpointing for `db`; returns null (and changes nothing) where that cannot apply. */
  static start(db: Db, nativeBinding?: string): Checkpointer | null {
    if (db.memory || db.readonly) return null;
    const modulePath = betterSqlitePath();
    if (modulePath === null) return null;
    const previous = db.pragma('wal_autocheckpoint', { simple: true }) as number;
    const c = new Checkpointer(db, previous);
    try {
      c.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { modulePath, file: db.name, nativeBinding: nativeBinding ?? null } });
    } catch {
      return null;
    }
    c.worker.unref();
    c.worker.on('message', () => (c.busy = false));
    c.worker.on('error', () => c.fallBack());
    c.worker.on('exit', () => c.fallBack());
    db.pragma('wal_autocheckpoint = 0');
    c.timer = setInterval(() => {
      if (c.busy || !c.worker) return;
      c.busy = true;
      c.worker.postMessage('checkpoint');
    }, PERIOD_MS);
    c.timer.unref();
    return c;
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
