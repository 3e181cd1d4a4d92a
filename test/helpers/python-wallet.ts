// Starts the Python stand-in operator (test/fixtures/operators/python_wallet.py) as a child process on
// a port the OS chooses, and stops it (this process only) when the test finishes.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { WalletDefect } from '../fixtures/operators/node-wallet';

const SCRIPT = fileURLToPath(new URL('../fixtures/operators/python_wallet.py', import.meta.url));

export interface PythonWallet {
  url: string;
  close(): Promise<void>;
}

export async function startPythonWallet(options: {
  secret: string;
  prefix: string;
  users: Record<string, number>;
  defect?: WalletDefect;
  latencyMs?: number;
}): Promise<PythonWallet> {
  const args = [SCRIPT, '--prefix', options.prefix, ...Object.entries(options.users).flatMap(([u, b]) => ['--user', `${u}=${b}`])];
  if (options.defect) args.push('--defect', options.defect);
  if (options.latencyMs) args.push('--latency-ms', String(options.latencyMs));
  const child = spawn('python3', args, { env: { ...process.env, OPERATOR_SECRET: options.secret }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
      else reject(new Error(`python_wallet.py said: ${line}`));
    });
    child.once('exit', (code) => reject(new Error(`python_wallet.py exited with ${code} before listening`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
