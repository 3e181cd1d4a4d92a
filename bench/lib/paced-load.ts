// An open-loop load at a steady rate: request i is due at i / rate seconds and its latency counts from
// then, whether or not a connection was free (no coordinated omission). autocannon's own rate option
// sends each connection's quota for the second in one burst at every second's tick, which measures a
// queue that the proxies do not have at that rate; this spreads the requests over the second instead.
import http from 'node:http';
import type { LoadResult } from './load';
import type { SignedCallback } from './payload';
import { percentile } from './stats';

/** Sends `amount` requests at `rate` a second over at most `connections` keep-alive connections. */
export function pacedLoad(
  base: string,
  payloads: readonly SignedCallback[],
  connections: number,
  amount: number,
  rate: number,
  maxSeconds: number,
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
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
    const settle = (): void => {
      if (++settled === amount) finish();
    };
    const send = (index: number): void => {
      const due = started + (index * 1000) / rate;
      const p = payloads[index % payloads.length]!;
      const req = http.request(new URL(p.path, base), { method: 'POST', agent, headers: { ...p.headers, 'content-length': String(p.body.length) } }, (res) => {
        res.resume();
        res.on('end', () => {
          lastResponse = performance.now();
          if (res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300) latencies.push(lastResponse - due);
          else non2xx++;
          settle();
        });
      });
      req.on('error', () => {
        errors++;
        settle();
      });
      req.end(p.body);
    };
    // Each tick sends every request that has come due since the last one: the rate holds whatever the timer's jitter.
    const ticker = setInterval(() => {
      const due = Math.min(amount, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
      while (sent < due) send(sent++);
    }, 1);
    const deadline = setTimeout(finish, maxSeconds * 1000);
  });
}
