// Runs the real CLI as a user for whom a directory is read-only. Root ignores file modes, so when the
// tests run as root the directory is handed to an unprivileged account (nobody) and the CLI runs as
// that account: the modes then bind exactly as they bind a normal user on their own data directory.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliCommand, type CliResult } from '../../helpers/cli';

const NOBODY = 65534;
/** The project root: `node --import tsx` resolves tsx from the working directory. */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export interface ReadOnlyHome {
  /** The uid the CLI must run as for the modes to bind (undefined: the current user). */
  uid: number | undefined;
  /** Gives the directory back to the test's user, writable, so it can be removed. */
  restore(): void;
}

/** Makes `dir` read-only (0500) and the files in it read-only (0400) for the user the CLI will run as. */
export function makeReadOnly(dir: string, options: { dirToo: boolean } = { dirToo: true }): ReadOnlyHome {
  const files = readdirSync(dir).map((name) => join(dir, name));
  if (isRoot) {
    chownSync(dir, NOBODY, NOBODY);
    for (const f of files) chownSync(f, NOBODY, NOBODY);
  }
  for (const f of files) chmodSync(f, 0o400);
  chmodSync(dir, options.dirToo ? 0o500 : 0o700);
  return {
    uid: isRoot ? NOBODY : undefined,
    restore() {
      chmodSync(dir, 0o700);
      for (const f of readdirSync(dir)) chmodSync(join(dir, f), 0o600);
      if (isRoot) {
        chownSync(dir, 0, 0);
        for (const f of readdirSync(dir)) chownSync(join(dir, f), 0, 0);
      }
    },
  };
}

/** runCli, as the given uid (and its group) when one is given. */
export function runCliAs(uid: number | undefined, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const { cmd, args: pre } = cliCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, [...pre, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(uid !== undefined ? { uid, gid: uid } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdoutBytes = Buffer.concat(out);
      resolve({ code: code ?? -1, stdout: stdoutBytes.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), stdoutBytes });
    });
    child.stdin.end('');
  });
}
