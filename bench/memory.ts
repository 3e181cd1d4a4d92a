// Benchmark 3: memory. RSS of `wager-desk serve` (forward mode, web UI on, with one
// live event-stream reader like an open tab) before and after many captures, sampled as they go. The
// database grows by a row per capture; the process must not. Distinct signed pay bodies (a pool that
// cycles) so the indexes see realistic keys.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchArgs } from './lib/args';
import { peakRssOf, rssOf } from './lib/child';
import { countRows, deskCommand, startServe, type RowCounts } from './lib/desk-cli';
import { readEvents, type EventReader } from './lib/event-stream';
import { BENCH_SECRET } from './lib/exchange-rows';
import { load } from './lib/load';
import { startUpstream } from './lib/upstream';
import { signedPay, type SignedCallback } from './lib/payload';
import { fmtBytes, fmtInt } from './lib/stats';
import { table } from './lib/table';

const POOL = 5_000;
const CONNECTIONS = 32;
/** Growth allowed over the measured captures before the verdict says "grows" (allocator and page-cache noise). */
const FLAT_BYTES = 32 * 1024 * 1024;

export interface MemorySample {
  captures: number;
  rss: number;
  seconds: number;
}

export interface MemoryBenchResult {
  desk: string;
  ui: boolean;
  captures: number;
  answered: number;
  samples: MemorySample[];
  rssIdle: number;
  rssAfterWarmup: number;
  rssFinal: number;
  peakRss: number | null;
  growthBytes: number;
  /** Least-squares slope of RSS over captures after the warm-up, in bytes per 1,000 captures. */
  bytesPer1000: number;
  flat: boolean;
  events: number | null;
  rows: RowCounts;
  seconds: number;
  allRecorded: boolean;
}

export interface MemoryBenchOptions extends BenchArgs {
  scratch: string;
  log(line: string): void;
}

function pool(): SignedCallback[] {
  const out: SignedCallback[] = [];
  for (let i = 0; i < POOL; i++) out.push(signedPay(`user-${i % 1000}`));
  return out;
}

/** Sends `amount` captures, cycling through the pool: the responses received, and those that failed. */
async function send(base: string, bodies: SignedCallback[], amount: number, maxSeconds: number): Promise<{ answered: number; errors: number }> {
  const r = await load(base, bodies, CONNECTIONS, amount, maxSeconds);
  return { answered: r.completed, errors: r.errors + r.timeouts + r.non2xx };
}

function slope(samples: readonly MemorySample[]): number {
  const n = samples.length;
  if (n < 2) return 0;
  const mx = samples.reduce((a, s) => a + s.captures, 0) / n;
  const my = samples.reduce((a, s) => a + s.rss, 0) / n;
  let num = 0;
  let den = 0;
  for (const s of samples) ((num += (s.captures - mx) * (s.rss - my)), (den += (s.captures - mx) ** 2));
  return den === 0 ? 0 : (num / den) * 1000;
}

export async function runMemoryBench(o: MemoryBenchOptions): Promise<MemoryBenchResult> {
  const desk = await deskCommand(o.fromSource);
  o.log(`desk: ${desk.label}`);
  const bodies = pool();
  const upstreamServer = startUpstream();
  const home = join(o.scratch, 'memory');
  mkdirSync(home, { recursive: true });
  const t0 = performance.now();
  let reader: EventReader | null = null;
  try {
    const upstream = await upstreamServer.url;
    const serve = await startServe(desk, { home, upstream, secret: BENCH_SECRET, ui: true });
    o.log(`serve pid ${serve.child.pid}, ui: on, one event-stream reader`);
    let answered = 0;
    let errors = 0;
    const samples: MemorySample[] = [];
    let rssIdle = 0;
    let rssAfterWarmup = 0;
    let peak: number | null = null;
    let events: number | null = null;
    try {
      if (serve.uiUrl) reader = await readEvents(serve.uiUrl);
      rssIdle = rssOf(serve.child.pid) ?? 0;
      const warm = Math.max(CONNECTIONS * 10, Math.min(20_000, Math.floor(o.captures / 20)));
      const w = await send(serve.proxyUrl, bodies, warm, Math.max(30, warm / 100));
      answered += w.answered;
      errors += w.errors;
      rssAfterWarmup = rssOf(serve.child.pid) ?? 0;
      samples.push({ captures: answered, rss: rssAfterWarmup, seconds: (performance.now() - t0) / 1000 });
      const steps = 10;
      const chunk = Math.max(CONNECTIONS, Math.ceil(o.captures / steps));
      for (let sent = 0; sent < o.captures; sent += chunk) {
        const r = await send(serve.proxyUrl, bodies, Math.min(chunk, o.captures - sent), Math.max(o.maxSeconds, chunk / 200));
        answered += r.answered;
        errors += r.errors;
        const rss = rssOf(serve.child.pid) ?? 0;
        samples.push({ captures: answered, rss, seconds: (performance.now() - t0) / 1000 });
        o.log(`  ${fmtInt(answered)} captures, RSS ${fmtBytes(rss)}, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      }
    } finally {
      peak = peakRssOf(serve.child.pid);
      events = reader ? reader.events() : null;
      reader?.close();
      await serve.child.stop(30_000);
    }
    const rows = countRows(home);
    const rssFinal = samples[samples.length - 1]?.rss ?? 0;
    const growth = rssFinal - rssAfterWarmup;
    if (errors > 0) o.log(`  ${errors} requests failed or timed out`);
    return {
      desk: desk.label,
      ui: serve.uiUrl !== null,
      captures: o.captures,
      answered,
      samples,
      rssIdle,
      rssAfterWarmup,
      rssFinal,
      peakRss: peak,
      growthBytes: growth,
      bytesPer1000: slope(samples),
      flat: growth < FLAT_BYTES,
      events,
      rows,
      seconds: (performance.now() - t0) / 1000,
      allRecorded: rows.inbound === answered && rows.answered === rows.inbound,
    };
  } finally {
    reader?.close();
    await upstreamServer.child.stop();
  }
}

export function formatMemoryResult(r: MemoryBenchResult): string {
  return [
    table(
      ['captures', 'RSS', 'elapsed'],
      r.samples.map((s) => [fmtInt(s.captures), fmtBytes(s.rss), `${s.seconds.toFixed(0)} s`]),
    ),
    '',
    `RSS idle ${fmtBytes(r.rssIdle)}, after warm-up ${fmtBytes(r.rssAfterWarmup)}, final ${fmtBytes(r.rssFinal)}, peak ${r.peakRss === null ? '-' : fmtBytes(r.peakRss)}`,
    `growth after warm-up: ${fmtBytes(Math.max(0, r.growthBytes))}${r.growthBytes < 0 ? ' (shrank)' : ''}; slope ${fmtInt(r.bytesPer1000)} bytes per 1,000 captures: ${r.flat ? 'flat' : 'GROWS'}`,
    r.events === null ? 'events: no UI stream' : `events read by the stream reader: ${fmtInt(r.events)}`,
    `rows check memory: requests=${r.answered} rows=${r.rows.inbound} answered=${r.rows.answered}: ${r.allRecorded ? 'ok' : 'MISMATCH'}`,
    `took ${r.seconds.toFixed(0)} s`,
  ].join('\n');
}
