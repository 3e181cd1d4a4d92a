// Runs the real CLI in a child process. By default the built one (out/main/cli.js, what `npx wager-desk`
// runs; `npm test` builds it first), unless the build is missing or older than the sources: then, and with
// CLI_FROM_SOURCE=1, the TypeScript source runs through tsx, so a quick loop never tests stale code.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { needsBuild } from '../../scripts/start-lib.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const built = `${root}out/main/cli.js`;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

/** Decided once per test file: walking the sources for their times on every spawn would be wasted work. */
let builtIsFresh: boolean | undefined;

export function cliCommand(): { cmd: string; args: string[] } {
  builtIsFresh ??= existsSync(built) && !needsBuild(root);
  if (process.env.CLI_FROM_SOURCE === '1' || !builtIsFresh) {
    return { cmd: process.execPath, args: ['--import', 'tsx', `${root}src-main/cli/main.ts`] };
  }
  return { cmd: process.execPath, args: [built] };
}

export interface RunOptions {
  env?: Record<string, string>;
  input?: Uint8Array | string;
  cwd?: string;
  /** Run as this user (and group of the same id): for tests of file permissions, which root ignores. */
  uid?: number;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const { cmd, args: pre } = cliCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, [...pre, ...args], {
      cwd: options.cwd ?? root,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.uid !== undefined ? { uid: options.uid, gid: options.uid } : {}),
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
    child.stdin.end(options.input ?? '');
  });
}
