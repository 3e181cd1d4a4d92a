// The export thread: a worker that builds the text of a HAR's entries (desk/export-thread-main.ts) while
// the proxy's thread only has the log's rows read and joins the text. Started at the first export, kept
// for the next (a desk's UI exports again), unref'd (an idle desk's process may end), and ended with the
// desk. The log leaves a slice's rows to the thread (either engine): they go as where to read them, the
// thread reads them on its own connection, and the read slice's text comes back whole (50 exchanges, so
// megabytes only where their bodies are). Rows read here (where the log cannot leave them to a thread) go
// over in groups of about GROUP_BYTES of bodies, so that no job copies megabytes at once on the proxy's
// thread; they go as the log read them, so that making details of them is the thread's work too.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DetailRow } from '../store/rows/exchange-rows';
import { readElsewhere } from '../store/rows/export-rows';
import { DeskFailure } from '../result';
import { harEntriesHere, type HarEntriesBuilder, type HarSlice } from './har-entries-text';
import type { HarThreadJob, HarThreadReply, ThreadSlice } from './har-thread-messages';

/** Body bytes a job carries at most, unless one exchange alone holds more. */
const GROUP_BYTES = 1 << 20;

/** How the thread starts: a file to run, or source to evaluate with what it needs in workerData. */
export type ThreadScript = { source: string; eval: true; workerData: Record<string, string> } | { source: string; eval: false };

/**
 * Where the thread's code is. In the build it is its own entry, `export-thread.js` in out/main
 * (electron.vite.config.ts), beside the entry or the shared chunk (out/main/chunks) this code was
 * bundled into. From source (tests, benchmarks, tsx) it is this folder's TypeScript, loaded through tsx's
 * hooks registered in the thread first (Node 20 does not apply a worker's `--import` hooks to its entry).
 * Null: neither (or source without tsx).
 */
function threadScript(): ThreadScript | null {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    let tsx: string;
    try {
      // tsx's ESM API (its package's `./esm/api` import), found from tsx's own folder.
      tsx = new URL('./dist/esm/api/index.mjs', pathToFileURL(createRequire(here).resolve('tsx/package.json'))).href;
    } catch {
      return null;
    }
    const entry = new URL('../desk/export-thread-main.ts', here).href;
    return { source: TSX_BOOT, eval: true, workerData: { tsx, entry } };
  }
  for (const relative of ['./export-thread.js', '../export-thread.js']) {
    const file = fileURLToPath(new URL(relative, here));
    if (existsSync(file)) return { source: file, eval: false };
  }
  return null;
}

const TSX_BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => {
  tsx.register();
  return import(workerData.entry);
});
`;

/** The export thread stopped before it answered (the desk closed, or it failed to start). */
export class HarThreadEnded extends Error {
  constructor(why = 'The export thread ended.') {
    super(why);
    this.name = 'HarThreadEnded';
  }
}

type Waiting = { resolve(text: string): void; reject(err: Error): void; readEnded: (() => void) | undefined };

export class HarThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextJob = 1;
  private closed = false;
  /** Whether the running thread has answered a job: a thread that fails before its first answer cannot start here. */
  private answered = false;
  /** The thread's code does not run in this build or package: the entries are built in place from then on. */
  private cannotStart = false;

  private constructor(private readonly script: ThreadScript) {}

  /**
   * The desk's export thread; null where its code cannot be found (then the entries are built in place).
   * `script`: where its code is, threadScript()'s answer but in tests.
   */
  static create(script: ThreadScript | null = threadScript()): HarThread | null {
    return script ? new HarThread(script) : null;
  }

  /**
   * The text of the slice's entries (harEntriesText's), built on the thread; in place where the thread
   * cannot start (its file found but not loadable: a package that holds it where a worker cannot read it),
   * so an export never fails for where it is built.
   */
  readonly build: HarEntriesBuilder = async (slice, secrets) => {
    if (this.cannotStart && !this.closed) return harEntriesHere(slice, secrets);
    const texts = await Promise.all(
      groups(slice).map((group) =>
        this.job(group, secrets).catch((err: unknown) => {
          if (this.cannotStart && !this.closed) return harEntriesHere(group, secrets);
          throw err;
        }),
      ),
    );
    return texts.filter((t) => t !== '').join(',\n');
  };

  /** Whether the thread's code failed to start here (the entries are built in place since). */
  buildsInPlace(): boolean {
    return this.cannotStart;
  }

  /** Whether the thread is up (started by a job, not ended since). */
  running(): boolean {
    return this.worker !== null;
  }

  /** Ends the thread; jobs under way fail with HarThreadEnded. Resolves once it is gone. */
  async close(): Promise<void> {
    this.closed = true;
    await this.end(new HarThreadEnded('The desk closed.'));
  }

  private job(slice: HarSlice, secrets: readonly string[]): Promise<string> {
    if (this.closed) return Promise.reject(new HarThreadEnded('The desk closed.'));
    let worker: Worker;
    try {
      worker = this.worker ?? this.spawn();
    } catch (err) {
      this.cannotStart = true;
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const job: HarThreadJob = { job: this.nextJob++, slice: crossing(slice), secrets };
    // A slice the thread reads itself: the log counts the read as under way until the thread says it is
    // over (or the job ends), not while the entries are built.
    const found = slice.found;
    const readEnded = readElsewhere(found) ? found.underWay?.() : undefined;
    return new Promise<string>((resolve, reject) => {
      this.waiting.set(job.job, { resolve, reject, readEnded });
      worker.postMessage(job);
    });
  }

  private spawn(): Worker {
    const s = this.script;
    const worker = s.eval ? new Worker(s.source, { eval: true, workerData: s.workerData }) : new Worker(s.source);
    worker.unref();
    this.answered = false;
    worker.on('message', (reply: HarThreadReply) => {
      this.answered = true;
      const waiting = this.waiting.get(reply.job);
      endRead(waiting);
      if ('readDone' in reply) return;
      this.waiting.delete(reply.job);
      if (reply.ok) waiting?.resolve(reply.text);
      // A failure the desk names (a read past its budget, the database away) keeps its code across the thread.
      else waiting?.reject(reply.code ? new DeskFailure(reply.code, reply.message) : new Error(reply.message));
    });
    // A thread that failed is replaced at the next job; its jobs under way fail.
    const lost = (err: Error): void => {
      if (this.worker !== worker) return;
      if (!this.answered && !this.closed) this.cannotStart = true;
      void this.end(err);
    };
    worker.on('error', lost);
    worker.on('exit', () => lost(new HarThreadEnded()));
    this.worker = worker;
    return worker;
  }

  private async end(why: Error): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    for (const waiting of this.waiting.values()) {
      endRead(waiting);
      waiting.reject(why);
    }
    this.waiting.clear();
    if (worker) await worker.terminate();
  }
}

/** Tells the log a job's read of the rows is over, once. */
function endRead(waiting: Waiting | undefined): void {
  const ended = waiting?.readEnded;
  if (!waiting || !ended) return;
  waiting.readEnded = undefined;
  ended();
}

/** The slice as it crosses to the thread: rows to read go as where to read them, without the function that reads them here. */
function crossing(slice: HarSlice): ThreadSlice {
  const found = slice.found;
  return readElsewhere(found) ? { ids: slice.ids, found: { readThere: found.readThere } } : { ids: slice.ids, found };
}

/**
 * The slice cut into runs of about GROUP_BYTES of bodies, in order, each with its own rows; rows the
 * thread reads itself go as one run (a read's slice is a few dozen rows).
 */
function groups(slice: HarSlice): HarSlice[] {
  const found = slice.found;
  if (readElsewhere(found)) return [slice];
  const byId = new Map(found.rows.map((r) => [r.id, r]));
  const out: HarSlice[] = [];
  let ids: number[] = [];
  let rows: DetailRow[] = [];
  let bytes = 0;
  const close = (): void => {
    const held = new Set(ids);
    out.push({ ids, found: { rows, derived: found.derived.filter((d) => held.has(d.source_id)) } });
    ((ids = []), (rows = []), (bytes = 0));
  };
  for (const id of slice.ids) {
    const row = byId.get(id);
    if (!row) continue;
    const size = row.req_body.byteLength + (row.res_body?.byteLength ?? 0);
    if (ids.length > 0 && bytes + size > GROUP_BYTES) close();
    ids.push(id);
    rows.push(row);
    bytes += size;
  }
  if (ids.length > 0) close();
  return out;
}

/** The thread's builder, or the in-place one where there is no thread. */
export function harEntriesBuilder(thread: HarThread | null): HarEntriesBuilder {
  return thread ? thread.build : harEntriesHere;
}
