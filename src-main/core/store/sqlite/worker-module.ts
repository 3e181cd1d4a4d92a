// The store's worker threads (the checkpointer, the text indexer) open their own connection with the
// same better-sqlite3 the desk uses: they are handed its resolved path, since a worker evaluated from
// source has no module location of its own to resolve from.
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';

/** better-sqlite3's entry point as this process resolves it; null where it cannot be resolved (then no worker starts). */
export function betterSqlitePath(): string | null {
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3');
  } catch {
    return null;
  }
}

/** Asks a store worker to finish (its work under way ends, its connection closes), then ends it: after 2 s at the most. */
export async function closeWorker(worker: Worker): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage('close');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2_000)))]);
  clearTimeout(timer);
  await worker.terminate();
}
