// An open-loop load at a steady rate: request i is due at i / rate seconds and its latency counts from
// then, whether or not a connection was free (no coordinated omission). autocannon's own rate option
// sends each connection's quota for the second in one burst at every second's tick, which measures a
// queue that the proxies do not have at that rate; this spreads the requests over the second instead.
// The pacer ticks every millisecond, so a request leaves up to about 1 ms after it is due, and that
// counts in its latency: the same for every proxy, so differences between them hold, absolute values
// are a little high.
import http from 'node:http';
import type { LoadResult } from './load';
import type { SignedCallback } from './payload';
import { percentile } from './stats';

/** Per-request outcomes for a caller that splits the run into phases (bench/prune.ts), and an early stop. */
export interface PacedObserver {
  /** Request `index`, due at `due` (performance.now()), answered with `status` after `ms`. */
  answered?(index: number, due: number, ms: number, status: number): void;
  /** Request `index` failed: refused, reset, or its answer cut; `reason` says which, and whether its connection was a reused keep-alive one. */
  failed?(index: number, due: number, reason: string): void;
  /** Request `index` was still waiting for its answer, `ms` after it was due, when the run ended. */
  unanswered?(index: number, due: number, ms: number): void;
  /** The generator itself did nothing for `ms` from `at` (performance.now()): answers in that time were read late. */
  stalled?(at: number, ms: number): void;
  /** Aborting ends the run early: nothing more is sent, requests in flight are dropped. */
  stop?: AbortSignal;
}

/** The agent's own idle limit; the server's announced keep-alive timeout, less a second, wins when lower. */
const IDLE_CONNECTION_MS = 60_000;

/** A gap between two of the generator's 1 ms ticks longer than this is reported as its own stall. */
export const OWN_STALL_MS = 20;

/** Which connection a failed request went on, in the words of the report. */
function connectionWords(reused: boolean, idleMs: number | null): string {
  if (!reused) return 'on a new connection';
  return `on a reused keep-alive connection${idleMs === null ? '' : ` idle for ${Math.round(idleMs)} ms`}`;
}

/** Sends `amount` requests at `rate` a second over at most `connections` keep-alive connections. */
export function pacedLoad(
  base: string,
  payloads: readonly SignedCallback[] | ((index: number) => SignedCallback),
  connections: number,
  amount: number,
  rate: number,
  maxSeconds: number,
  observer: PacedObserver = {},
): Promise<LoadResult> {
  // A connection idle as long as the server's announced keep-alive timeout (`Keep-Alive: timeout=5`) is
  // one the server is closing: a request sent on it meets the close and is reset unread, the race every
  // HTTP/1.1 client must avoid. Node 20's agent heeds the announcement only below a timeout of its own,
  // so it is given one; idle connections then go a second before the server's timeout, as the hint asks.
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, timeout: IDLE_CONNECTION_MS });
  /** When each connection last finished an answer: a failure on a reused one says how long it had been idle. */
  const lastUsed = new WeakMap<object, number>();
  const latencies: number[] = [];
  let sent = 0;
  let settled = 0;
  let errors = 0;
  let non2xx = 0;
  let lastResponse = 0;
  const started = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearInterval(ticker);
      clearTimeout(deadline);
      // Past the deadline: nothing still queued or in flight may go out after the result.
      const now = performance.now();
      for (const [req, { index, due }] of inFlight) {
        observer.unanswered?.(index, due, now - due);
        req.destroy();
      }
      agent.destroy();
      const seconds = ((lastResponse || performance.now()) - started) / 1000;
      resolve({
        connections,
        completed: latencies.length + non2xx,
        sent,
        cutShort: latencies.length + non2xx < amount,
        errors,
        timeouts: 0,
        non2xx,
        seconds,
        rps: latencies.length / seconds,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        mean: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
      });
    };
    const inFlight = new Map<http.ClientRequest, { index: number; due: number }>();
    const send = (index: number): void => {
      const due = started + (index * 1000) / rate;
      const p = typeof payloads === 'function' ? payloads(index) : payloads[index % payloads.length]!;
      let over = false;
      /** How long its connection had been idle when it was handed this request (a reused one only). */
      let idleMs: number | null = null;
      // Exactly once a request: its answer ended, or it failed (refused, reset, an answer cut mid-body).
      const settle = (outcome: 'answered' | 'failed', status = 0, reason = ''): void => {
        if (over) return;
        over = true;
        // Requests dropped by finish() are not the server's failures.
        if (done) return;
        inFlight.delete(req);
        if (outcome === 'failed') (errors++, observer.failed?.(index, due, `${reason}, ${connectionWords(req.reusedSocket, idleMs)}`));
        else {
          lastResponse = performance.now();
          if (req.socket) lastUsed.set(req.socket, lastResponse);
          observer.answered?.(index, due, lastResponse - due, status);
          if (status >= 200 && status < 300) latencies.push(lastResponse - due);
          else non2xx++;
        }
        if (++settled === amount) finish();
      };
      const req = http.request(new URL(p.path, base), { method: 'POST', agent, headers: { ...p.headers, 'content-length': String(p.body.length) } }, (res) => {
        res.resume();
        res.on('end', () => settle('answered', res.statusCode ?? 0));
        res.on('close', () => settle('failed', 0, `answer cut after status ${res.statusCode ?? '?'}`));
      });
      inFlight.set(req, { index, due });
      req.on('socket', (socket) => {
        const last = lastUsed.get(socket);
        if (last !== undefined) idleMs = performance.now() - last;
      });
      req.on('error', (err: NodeJS.ErrnoException) => settle('failed', 0, err.code ?? err.message));
      req.end(p.body);
    };
    // Each tick sends every request that has come due since the last one: the rate holds whatever the timer's jitter.
    // The ticker runs every millisecond: a longer gap is the generator's own pause (its garbage
    // collection, a busy machine), which delays sends and the reading of answers alike. Reported, so
    // that a stall of its own is not read as the server's.
    let lastTick = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      if (now - lastTick > OWN_STALL_MS) observer.stalled?.(lastTick, now - lastTick);
      lastTick = now;
      const due = Math.min(amount, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
      while (sent < due) send(sent++);
    }, 1);
    const deadline = setTimeout(finish, maxSeconds * 1000);
    observer.stop?.addEventListener('abort', finish, { once: true });
  });
}
