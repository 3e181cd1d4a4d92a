// At most `rate` sends per second: send n is due at start + n/rate. A send that took longer than its
// slot is not made up for by a burst beyond the schedule's catch-up (a slow operator is not hammered
// once it recovers): the schedule restarts from now when it has fallen behind by more than one second.
import { setTimeout as delay } from 'node:timers/promises';

export const DEFAULT_RATE = 10;
export const MAX_RATE = 100_000;

export class Pacer {
  private readonly intervalMs: number;
  private start = performance.now();
  private n = 0;

  constructor(rate: number) {
    this.intervalMs = 1000 / rate;
  }

  /** Resolves when the next send may go (at once when it is due); rejects with an AbortError on abort. */
  async next(signal?: AbortSignal): Promise<void> {
    const now = performance.now();
    let due = this.start + this.n * this.intervalMs;
    if (now - due > 1000) {
      this.start = now;
      this.n = 0;
      due = now;
    }
    this.n += 1;
    const wait = due - now;
    if (wait > 0.5) await delay(wait, undefined, signal ? { signal } : {});
  }
}

/** The rate asked, checked: a positive number up to MAX_RATE. */
export function checkRate(rate: unknown): number {
  if (rate === undefined) return DEFAULT_RATE;
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0 || rate > MAX_RATE) {
    throw new Error(`The rate is sends per second, more than 0 and at most ${MAX_RATE}.`);
  }
  return rate;
}
