// Runs the real CLI as a user for whom a directory is read-only. Root ignores file modes, so when the
// tests run as root the directory is handed to an unprivileged account (nobody) and the CLI runs as
// that account: the modes then bind exactly as they bind a normal user on their own data directory.
import { chmodSync, chownSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, type CliResult } from '../../helpers/cli';

const NOBODY = 65534;
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
  return runCli(args, { env, ...(uid !== undefined ? { uid } : {}) });
}
