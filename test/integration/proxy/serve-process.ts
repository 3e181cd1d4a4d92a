// `wager-desk serve` in a child process: started through the real CLI, ready once its `proxy:` line is
// read, stopped by a signal.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { cliCommand, cliEnv } from '../../helpers/cli';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stderr(): string;
  /** Resolves once stderr contains the text (stderr and stdout are separate pipes: no order between them). */
  waitForStderr(text: string): Promise<void>;
  /** Resolves with the first stdout line that matches. */
  waitForStdout(pattern: RegExp): Promise<string>;
  /** Sends the signal and resolves with the exit code (null when killed by the signal). */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns `serve` with the given arguments; rejects with its output when it exits before the proxy line. */
export function startServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const { cmd, args: pre } = cliCommand();
  const child = spawn(cmd, [...pre, ...args], { cwd: root, env: cliEnv({ ...process.env, ...env }), stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer): void => {
      out += d.toString();
      const match = /^proxy: (https?:\/\/\S+)$/m.exec(out);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const waitFor = (what: 'stdout' | 'stderr', test: (text: string) => string | null): Promise<string> =>
        new Promise((done, fail) => {
          const stream = what === 'stdout' ? child.stdout : child.stderr;
          const check = (): void => {
            const found = test(what === 'stdout' ? out : err);
            if (found === null) return;
            stream.off('data', check);
            done(found);
          };
          // Listeners run in order: the collectors above were added first, so `out`/`err` are current here.
          stream.on('data', check);
          void exited.then(() => fail(new Error(`serve exited without printing what was awaited on ${what}:\nstdout: ${out}\nstderr: ${err}`)));
          check();
        });
      resolve({
        child,
        url: match[1]!,
        stderr: () => err,
        waitForStderr: async (text) => {
          await waitFor('stderr', (all) => (all.includes(text) ? text : null));
        },
        waitForStdout: (pattern) => waitFor('stdout', (all) => all.split('\n').find((line) => pattern.test(line)) ?? null),
        stop: (signal) => {
          child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    void exited.then(({ code }) => reject(new Error(`serve exited (${code}) before its proxy line.\nstdout: ${out}\nstderr: ${err}`)));
  });
}

/** Runs `serve` expecting it to fail at start: resolves with its exit code and stderr. */
export function failingServe(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const { cmd, args: pre } = cliCommand();
  const child = spawn(cmd, [...pre, ...args], { cwd: root, env: cliEnv({ ...process.env, ...env }), stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr: err })));
}
