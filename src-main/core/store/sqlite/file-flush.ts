// Flushes a file's written pages to the disk (fsync) from a helper process. Not from this one: closing
// any descriptor of a file drops every POSIX lock this process holds on it, SQLite's included, so a
// database file is never opened and closed beside the connection that uses it. fsync acts on the file,
// whichever process asks.
import { spawn } from 'node:child_process';

const FLUSH_SOURCE = `const fs = require('node:fs'); const fd = fs.openSync(process.argv[1], 'r+'); fs.fsyncSync(fd);`;

/** Resolves once the file's pages are on the disk, or the helper failed (the caller's own fsync still follows). */
export function flushFileElsewhere(file: string): Promise<void> {
  return new Promise((resolve) => {
    try {
      const child = spawn(process.execPath, ['-e', FLUSH_SOURCE, file], {
        stdio: 'ignore',
        // The app's own binary runs as plain Node for this.
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      });
      child.once('error', () => resolve());
      child.once('exit', () => resolve());
    } catch {
      resolve();
    }
  });
}
