// Runs the real CLI in a child process. By default the built one (out/main/cli.js, what `npx wager-desk`
// runs; `npm test` builds it first). CLI_FROM_SOURCE=1 runs the TypeScript source through tsx instead,
// for quick iterations without a build.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const built = `${root}out/main/cli.js`;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

export function cliCommand(): { cmd: string; args: string[] } {
  if (process.env.CLI_FROM_SOURCE === '1' || !existsSync(built)) {
    return { cmd: process.execPath, args: ['--import', 'tsx', `${root}src-main/cli/main.ts`] };
  }
  return { cmd: process.execPath, args: [built] };
}

export function runCli(args: string[], options: { env?: Record<string, string>; input?: Uint8Array | string; cwd?: string } = {}): Promise<CliResult> {
  const { cmd, args: pre } = cliCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, [...pre, ...args], {
      cwd: options.cwd ?? root,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
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
