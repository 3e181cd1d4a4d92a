// The desk's reads of the log (lists and searches, one exchange, a timeline, the counts, following the
// log, exports' and reports' reads, a re-verification's pages, the selections of a delete, a prune and a
// redelivery) run on reading threads, each with a read-only connection of its own: WAL lets it read while the proxy writes, and a
// search that takes seconds never holds the event loop the captures are answered on. A read has a time
// budget: when it is spent, or when its caller goes away (an HTTP client that disconnected), the thread
// is ended mid-statement (better-sqlite3 cannot interrupt one) and a fresh one takes its place at the
// next read. A plan stopped so answers with what it found if it can (read-plan.ts: ReadStopped).
import { Worker } from 'node:worker_threads';
import { BUSY_TIMEOUT_MS, type Db } from './db';
import { ReadStopped, runStatement, type ReadPlan, type ReadStep } from './read-plan';
import { betterSqlitePath } from './worker-module';
import type { SqliteRowSource } from '../rows/export-rows';
import { READ_BUDGET_MS } from '../rows/read-budget';

export { READ_BUDGET_MS } from '../rows/read-budget';
/** Threads reading at once: a long search leaves one for the list, the counts and the detail beside it. */
const THREADS = 2;

/**
 * The reading threads' nice value. On Linux a thread's nice is its own (setpriority on the calling
 * thread), so a search walking the log yields the cores to the proxy's thread whenever both want one,
 * and takes them whole when the proxy is idle. Not the text indexer's: it holds the write lock while it
 * works, and a capture would wait for it the longer. Linux only: on macOS and Windows the same call
 * sets the whole process's priority, the proxy's thread with it.
 */
export const READER_NICE = 10;

// CommonJS, evaluated in the worker: no file to bundle or find at run time. runStatement is the same
// function the desk's own connection runs plans with.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const o = workerData;
if (process.platform === 'linux') try { require('node:os').setPriority(0, ${READER_NICE}); } catch {}
const db = new Database(o.file, { readonly: true, fileMustExist: true, ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}) });
db.pragma('busy_timeout = ${BUSY_TIMEOUT_MS}');
parentPort.postMessage('ready');
const runStatement = ${runStatement.toString()};
const cache = new Map();
parentPort.on('message', (step) => {
  if (step === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    let result;
    if (step.kind === 'snapshot') {
      if (step.open && !db.inTransaction) db.exec('BEGIN');
      else if (!step.open && db.inTransaction) db.exec('COMMIT');
    } else result = runStatement(db, cache, step);
    parentPort.postMessage({ ok: true, result });
  } catch (err) {
    parentPort.postMessage({ ok: false, message: String(err && err.message), code: err && err.code });
  }
});
`;

/** The caller no longer waits for the read (its HTTP client went away, the desk closes). */
export class ReadAbandoned extends Error {
  constructor() {
    super('The read was abandoned: its caller went away.');
    this.name = 'ReadAbandoned';
  }
}

export type ReadStats = { running: number; stopped: number; abandoned: number };

export interface ReadOptions {
  /** Default: the threads' budget. */
  budgetMs?: number;
  /** Aborted: the caller went away; the read stops at once. */
  signal?: AbortSignal | undefined;
}

type Reply = { ok: true; result: unknown } | { ok: false; message: string; code?: string };

/** One thread and the step it runs. */
class Reader {
  private worker: Worker | null = null;
  private waiting: { resolve(value: unknown): void; reject(err: Error): void } | null = null;
  private started: Promise<unknown> | null = null;

  constructor(private readonly workerData: Record<string, unknown>) {}

  /** Resolves once the thread has its connection open (a new thread's start is not counted in a read's budget). */
  ready(): Promise<unknown> {
    if (this.worker && this.started) return this.started;
    this.spawn();
    this.started = new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
    return this.started;
  }

  /** Runs one step on the thread (started by ready()). */
  step(step: ReadStep): Promise<unknown> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new Error('The reading thread ended.'));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      worker.postMessage(step);
    });
  }

  /** Ends the thread now, whatever it runs: the step it runs fails with `why`. Resolves once the thread is gone. */
  end(why: Error): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.started = null;
    this.fail(why);
    return worker ? worker.terminate().then(() => undefined) : Promise.resolve();
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.workerData });
    // A desk left open (a test, a short command) does not keep the process alive for its readers.
    worker.unref();
    worker.on('message', (reply: Reply | 'ready') => {
      if (this.worker !== worker) return;
      const waiting = this.waiting;
      this.waiting = null;
      if (!waiting) return;
      if (reply === 'ready') waiting.resolve(undefined);
      else if (reply.ok) waiting.resolve(withBuffers(reply.result));
      else waiting.reject(Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {}));
    });
    // A thread ended on purpose (end()) is no longer this reader's: only the current one's end fails its step.
    const lost = (err: Error): void => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.started = null;
      this.fail(err);
    };
    worker.on('error', lost);
    worker.on('exit', () => lost(new Error('The reading thread ended.')));
    this.worker = worker;
    return worker;
  }

  private fail(err: Error): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(err);
  }
}

/** Blobs cross the thread as Uint8Array: the rows' mapping expects the Buffers SQLite hands out. */
function withBuffers(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) return value.map(withBuffers);
  if (value !== null && typeof value === 'object') {
    const row = value as Record<string, unknown>;
    for (const key of Object.keys(row)) if (row[key] instanceof Uint8Array) row[key] = withBuffers(row[key]);
  }
  return value;
}

export class ReadingThreads {
  private readonly idle: Reader[];
  private readonly queue: Array<{ turn(reader: Reader): void; refuse(): void }> = [];
  private readonly busy = new Set<Reader>();
  private closed = false;
  private readonly counted = { stopped: 0, abandoned: 0 };

  private constructor(
    /** The file and the driver the threads open it with: another thread of the desk may open it so too (Store.threadRows). */
    readonly source: SqliteRowSource['sqlite'],
    private readonly budgetMs: number,
  ) {
    this.idle = Array.from({ length: THREADS }, () => new Reader({ ...source }));
  }

  /** Reading threads for `db`'s file (started at their first read); null for a database without a file, or without a worker. */
  static for(db: Db, options: { nativeBinding?: string; budgetMs?: number } = {}): ReadingThreads | null {
    if (db.memory) return null;
    const modulePath = betterSqlitePath();
    if (modulePath === null) return null;
    return new ReadingThreads({ modulePath, file: db.name, nativeBinding: options.nativeBinding ?? null }, options.budgetMs ?? READ_BUDGET_MS);
  }

  /**
   * Runs `plan` on a free thread (waiting for one). Its budget spent, the plan is told (ReadStopped) and
   * answers with what it found, or fails with it; its caller gone, it fails with ReadAbandoned.
   */
  async run<T>(plan: ReadPlan<T>, options: ReadOptions = {}): Promise<T> {
    const { signal } = options;
    if (signal?.aborted) throw new ReadAbandoned();
    const reader = await this.take(signal);
    try {
      await reader.ready();
      // The caller may have left while the thread started.
      if (signal?.aborted) {
        this.counted.abandoned += 1;
        throw new ReadAbandoned();
      }
    } catch (err) {
      this.give(reader);
      throw err;
    }
    const started = performance.now();
    let failure = null as Error | null;
    const stop = (why: Error): void => {
      if (failure) return;
      failure = why;
      this.counted[why instanceof ReadAbandoned ? 'abandoned' : 'stopped'] += 1;
      void reader.end(why);
    };
    const timer = setTimeout(() => stop(new ReadStopped(performance.now() - started)), options.budgetMs ?? this.budgetMs);
    const abandon = (): void => stop(new ReadAbandoned());
    signal?.addEventListener('abort', abandon, { once: true });
    try {
      let next = plan.next();
      while (!next.done) {
        const step = next.value;
        if (failure) {
          // The thread is gone: what the plan still asks fails, but closing its snapshot is no work.
          next = step.kind === 'snapshot' ? plan.next(undefined) : plan.throw(failure);
          continue;
        }
        let result: unknown;
        try {
          result = await reader.step(step);
        } catch (err) {
          next = plan.throw(failure ?? err);
          continue;
        }
        next = plan.next(result);
      }
      if (failure instanceof ReadAbandoned) throw failure;
      return next.value;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abandon);
      this.give(reader);
    }
  }

  /** Reads running now, and those ended by their budget (stopped) and by their caller going away (abandoned) since the start. */
  stats(): ReadStats {
    return { running: this.busy.size, ...this.counted };
  }

  /**
   * Ends every thread: reads under way fail (ReadAbandoned), later ones too. Resolves once every thread
   * is gone with its connection, so that the desk's own connection, closed after, is the last and
   * checkpoints the log into its file.
   */
  close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.refuse();
    return Promise.all([...this.idle, ...this.busy].map((reader) => reader.end(new ReadAbandoned()))).then(() => undefined);
  }

  private take(signal: AbortSignal | undefined): Promise<Reader> {
    if (this.closed) return Promise.reject(new ReadAbandoned());
    const reader = this.idle.pop();
    if (reader) {
      this.busy.add(reader);
      return Promise.resolve(reader);
    }
    return new Promise((resolve, reject) => {
      const waiting = {
        turn: (r: Reader): void => {
          signal?.removeEventListener('abort', gone);
          resolve(r);
        },
        refuse: (): void => reject(new ReadAbandoned()),
      };
      const gone = (): void => {
        this.queue.splice(this.queue.indexOf(waiting), 1);
        waiting.refuse();
      };
      signal?.addEventListener('abort', gone, { once: true });
      this.queue.push(waiting);
    });
  }

  private give(reader: Reader): void {
    if (this.closed) {
      this.busy.delete(reader);
      void reader.end(new ReadAbandoned());
      return;
    }
    const next = this.queue.shift();
    if (next) return next.turn(reader);
    this.busy.delete(reader);
    this.idle.push(reader);
  }
}
