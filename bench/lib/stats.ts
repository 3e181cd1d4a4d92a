// Small numbers helpers shared by the benchmarks: percentiles of timing samples, ratios, formatting.

/** The p-th percentile (0..100) of the samples, by nearest rank; NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** a / b, or null when either is missing or b is zero (a ratio against a peer that did not run). */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === null || a === undefined || b === null || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null;
  return a / b;
}

/** Student's t at 97.5% for 1 to 30 degrees of freedom (past 30, the normal's 1.96). */
const T_975 = [
  12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13, 2.12, 2.11, 2.1, 2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06,
  2.05, 2.05, 2.05, 2.04,
];

/**
 * The geometric mean of ratios taken round by round, and its 95% interval (t over the logs): whether a
 * difference of a few percent stands out of the machine's spread between rounds, which the median alone
 * does not tell. A ratio and its inverse weigh the same. Null bounds for fewer than two rounds.
 */
export function ratioInterval(ratios: readonly number[]): { mean: number; low: number | null; high: number | null } | null {
  const logs = ratios.filter((r) => Number.isFinite(r) && r > 0).map(Math.log);
  if (logs.length === 0) return null;
  const n = logs.length;
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean: Math.exp(mean), low: null, high: null };
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const half = (T_975[n - 2] ?? 1.96) * (sd / Math.sqrt(n));
  return { mean: Math.exp(mean), low: Math.exp(mean - half), high: Math.exp(mean + half) };
}

export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  if (ms < 1) return `${ms.toFixed(3)} ms`;
  if (ms < 100) return `${ms.toFixed(2)} ms`;
  return `${Math.round(ms)} ms`;
}

export function fmtRatio(r: number | null): string {
  return r === null ? '-' : `${r.toFixed(2)}x`;
}

export function fmtInt(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '-' : Math.round(n).toLocaleString('en-US');
}

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Times fn `iterations` times (stopping early past `maxMs`), returning each duration in ms. */
export function timeSync(fn: (i: number) => unknown, iterations: number, maxMs = Number.POSITIVE_INFINITY): number[] {
  const out: number[] = [];
  const deadline = performance.now() + maxMs;
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    fn(i);
    out.push(performance.now() - t0);
    if (performance.now() > deadline) break;
  }
  return out;
}
