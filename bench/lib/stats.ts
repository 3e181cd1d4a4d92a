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
