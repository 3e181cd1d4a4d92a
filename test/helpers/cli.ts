// Runs the real CLI in a child process. By default the test build's (out-test/main/cli.js: `npm test`
// builds it first, into a folder of its own so that a desk running from out/ is left alone), unless the
// build is missing or older than the sources: then, and with CLI_FROM_SOURCE=1, the TypeScript source
// runs through tsx, so a quick loop never tests stale code. The built CLI serves the test build's UI.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { needsBuild } from '../../scripts/start-lib.mjs';
import { TEST_BUILD_DIR } from '../../scripts/test-build.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const built = `${root}${TEST_BUILD_DIR}/main/cli.js`;
/** The UI the built CLI serves: its own build's (it would otherwise look in out/renderer). */
export const TEST_BUILD_RENDERER = `${root}${TEST_BUILD_DIR}/renderer`;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

/** Decided once per test file: walking the sources for their times on every spawn would be wasted work. */
let builtIsFresh: boolean | undefined;

export function cliCommand(): { cmd: string; args: string[] } {
  builtIsFresh ??= existsSync(built) && !needsBuild(root, TEST_BUILD_DIR);
  if (process.env.CLI_FROM_SOURCE === '1' || !builtIsFresh) {
    return { cmd: process.execPath, args: ['--import', 'tsx', `${root}src-main/cli/main.ts`] };
  }
  return { cmd: process.execPath, args: [built] };
}

/** The environment of a CLI child: the test build's UI unless the caller names another. */
export function cliEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { WAGER_DESK_RENDERER_DIR: TEST_BUILD_RENDERER, ...env };
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
      env: cliEnv({ ...process.env, ...options.env }),
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
