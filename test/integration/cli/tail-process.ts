// `wager-desk tail` in a child process, ready once it has read its starting point (its stderr line);
// its lines are awaited as they arrive.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { cliCommand } from '../../helpers/cli';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface TailProcess {
  lines(): string[];
  /** What it printed on stderr so far. */
  stderr(): string;
  /** Resolves once `n` stdout lines were printed. */
  waitForLines(n: number): Promise<string[]>;
  stop(signal: NodeJS.Signals): Promise<number | null>;
  /** Closes the reading end of tail's stdout, as a reader that stops reading does. */
  closeOutput(): void;
  exited: Promise<number | null>;
}

/** Starts `tail` (the arguments before and after the command name), resolved once it follows. */
export function startTail(args: string[], env: Record<string, string> = {}): Promise<TailProcess> {
  const { cmd, args: pre } = cliCommand();
  const child = spawn(cmd, [...pre, 'tail', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (const w of [...waiters]) w();
  });
  const lines = (): string[] => out.split('\n').filter((l) => l !== '');
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (!err.includes('following the exchange log')) return;
      resolve({
        lines,
        stderr: () => err,
        waitForLines: (n) =>
          new Promise((done, fail) => {
            const check = (): void => {
              if (lines().length < n) return;
              waiters.splice(waiters.indexOf(check), 1);
              done(lines());
            };
            waiters.push(check);
            void exited.then(() => fail(new Error(`tail exited with ${lines().length} of ${n} lines:\n${out}\n${err}`)));
            check();
          }),
        stop: (signal) => {
          child.kill(signal);
          return exited;
        },
        closeOutput: () => child.stdout.destroy(),
        exited,
      });
    });
    void exited.then((code) => reject(new Error(`tail exited (${code}) before following:\n${out}\n${err}`)));
  });
}
