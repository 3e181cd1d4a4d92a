// The store's worker threads (the checkpointer, the text indexer) open their own connection with the
// same better-sqlite3 the desk uses: they are handed its resolved path, since a worker evaluated from
// source has no module location of its own to resolve from.
import { createRequire } from 'node:module';

/** better-sqlite3's entry point as this process resolves it; null where it cannot be resolved (then no worker starts). */
export function betterSqlitePath(): string | null {
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3');
  } catch {
    return null;
  }
}
