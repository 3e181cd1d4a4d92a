// One load run with autocannon's programmatic API. Latencies are kept per response at full precision
// (autocannon's own histogram rounds to whole milliseconds, too coarse for a sub-millisecond floor), and
// the run's duration is taken from the first request to the last response: autocannon reports the end
// of an `amount` run only on its next one-second tick, which would skew a 4-second run by up to 25%.
// For the same reason a caller that measures the server's CPU over the run reads it at the last answer
// (`atLastAnswer`), not once this returns: the half second or so in between is the server's idle time,
// which its background work (a text indexer catching up after the load) would be counted in.
import autocannon from 'autocannon';
import { percentile } from './stats';
import type { SignedCallback } from './payload';

export interface LoadResult {
  connections: number;
  /** Responses received. */
  completed: number;
  /** Requests written (more than completed only when the time bound stopped the run). */
  sent: number;
  /** The run ended on the time bound before `amount` responses. */
  cutShort: boolean;
  errors: number;
  timeouts: number;
  non2xx: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  mean: number;
}

/**
 * Sends `amount` requests as fast as the connections go: `payload` every time, or a list's entries in
 * turn (cycling). `atLastAnswer` runs as the `amount`th answer arrives.
 */
export function load(
  base: string,
  payload: SignedCallback | readonly SignedCallback[],
  connections: number,
  amount: number,
  maxSeconds: number,
  atLastAnswer?: () => void,
): Promise<LoadResult> {
  const list: readonly SignedCallback[] = Array.isArray(payload) ? payload : [payload as SignedCallback];
  const first = list[0];
  if (!first) return Promise.reject(new Error('load: no payload to send'));
  let next = 0;
  const latencies: number[] = [];
  let statusErrors = 0;
  let lastResponse = 0;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const instance = autocannon(
      {
        url: new URL(first.path, base).href,
        connections,
        amount,
        timeout: 10,
        // One payload: autocannon builds the request once. A list: each request is built from the next entry.
        requests: [
          list.length === 1
            ? { method: 'POST', headers: first.headers, body: first.body }
            : {
                method: 'POST',
                setupRequest: (req) => {
                  const p = list[next++ % list.length]!;
                  return { ...req, path: p.path, headers: p.headers, body: p.body };
                },
              },
        ],
      },
      (err, result) => {
        clearTimeout(timer);
        if (err) return reject(err);
        const seconds = ((lastResponse || performance.now()) - started) / 1000;
        resolve({
          connections,
          completed: latencies.length + statusErrors,
          sent: result.requests.sent,
          cutShort: latencies.length + statusErrors < amount,
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          seconds,
          rps: latencies.length / seconds,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          mean: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      lastResponse = performance.now();
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      else statusErrors++;
      if (latencies.length + statusErrors === amount) atLastAnswer?.();
    });
    timer = setTimeout(() => instance.stop(), maxSeconds * 1000);
  });
}
