// A descriptor of the database file, kept open for the life of the process, to flush the file's pages to
// the disk from a worker thread. Closing any descriptor of a file drops every POSIX lock the process
// holds on it, SQLite's included, so this one is opened once per file and never closed (file-flush.ts
// runs a helper process instead, for one-off flushes). fsync acts on the file, not on the descriptor.
import { openSync } from 'node:fs';

const handles = new Map<string, number>();

/** The kept descriptor of `file` (opened read-only on first use); null if it cannot be opened. */
export function flushHandle(file: string): number | null {
  const kept = handles.get(file);
  if (kept !== undefined) return kept;
  try {
    const fd = openSync(file, 'r');
    handles.set(file, fd);
    return fd;
  } catch {
    return null;
  }
}
