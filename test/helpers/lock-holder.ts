// Another process that holds a database's write lock, the way a prune's batch or a CLI write does:
// BEGIN IMMEDIATE on the same file, until it is told to let go. Killed when the test finishes.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeAfterTest } from './closing';

export interface LockHolder {
  /** Commits and exits; resolves once the lock is free. */
  release(): Promise<void>;
}

const SCRIPT = `
  const Database = require('better-sqlite3');
  const db = new Database(process.argv[1]);
  db.exec('BEGIN IMMEDIATE');
  db.exec('CREATE TABLE IF NOT EXISTS lock_holder (x)');
  process.stdout.write('locked\\n');
  process.stdin.on('end', () => { db.exec('COMMIT'); db.close(); process.exit(0); });
  process.stdin.resume();
`;

/** Resolves once the other process holds the write lock of `file`. */
export async function holdWriteLock(file: string): Promise<LockHolder> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['-e', SCRIPT, file], { cwd: process.cwd() });
  closeAfterTest({ close: () => void child.kill('SIGKILL') });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
  return {
    release: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
