// Child processes for the benchmarks: every server under test runs in its own process, so it never
// shares an event loop with the load generator or with another server. Bounded waits throughout.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';

export interface Child {
  readonly proc: ChildProcess;
  readonly pid: number;
  /** Everything written so far (stdout and stderr), for error messages. */
  output(): string;
  /** Waits for a line of output matching the pattern; rejects on exit or after timeoutMs. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then SIGKILL after graceMs; resolves with the exit code (or signal name). */
  stop(graceMs?: number): Promise<string>;
}

export interface ChildOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run on this CPU only: through taskset, which sets the CPU and then execs `cmd` (the pid is `cmd`'s). */
  cpu?: number | null;
}

export function startChild(cmd: string, args: readonly string[], options: ChildOptions = {}): Child {
  const argv = options.cpu === undefined || options.cpu === null ? [cmd, ...args] : ['taskset', '--cpu-list', String(options.cpu), cmd, ...args];
  const proc = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  let exited: string | null = null;
  const watchers = new Set<() => void>();
  const onText = (chunk: Buffer): void => {
    text += chunk.toString('utf8');
    if (text.length > 256 * 1024) text = text.slice(-128 * 1024);
    for (const w of [...watchers]) w();
  };
  proc.stdout!.on('data', onText);
  proc.stderr!.on('data', onText);
  const exit = new Promise<string>((resolve) => {
    proc.on('exit', (code, signal) => {
      exited = code !== null ? String(code) : String(signal);
      for (const w of [...watchers]) w();
      resolve(exited);
    });
    proc.on('error', (err) => {
      exited = `spawn error: ${err.message}`;
      text += `\n${exited}`;
      for (const w of [...watchers]) w();
      resolve(exited);
    });
  });
  return {
    proc,
    pid: proc.pid ?? -1,
    output: () => text,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const m = text.match(pattern);
          if (m) return done(() => resolve(m));
          if (exited !== null) return done(() => reject(new Error(`${cmd} exited (${exited}) before printing ${pattern}:\n${text.slice(-2000)}`)));
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`${cmd} did not print ${pattern} within ${timeoutMs} ms:\n${text.slice(-2000)}`))),
          timeoutMs,
        );
        const done = (fn: () => void): void => {
          clearTimeout(timer);
          watchers.delete(check);
          fn();
        };
        watchers.add(check);
        check();
      });
    },
    async stop(graceMs = 10_000) {
      if (exited !== null) return exited;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      const code = await exit;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A port free on 127.0.0.1 right now (for servers that cannot take port 0 and report it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on the port (polled every 100 ms, at most timeoutMs). */
export async function waitForPort(port: number, timeoutMs: number, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`the process meant to listen on ${port} exited`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`);
}

/** Resident set size of a process in bytes (Linux: VmRSS of /proc/PID/status); null where unreadable. */
export function rssOf(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Peak RSS (VmHWM) in bytes; null where unreadable. */
export function peakRssOf(pid: number): number | null {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}
