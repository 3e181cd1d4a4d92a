// Benchmark: `wager-desk prune --keep 1000` on a big log while `serve` (sandbox mode) takes a steady
// callback load on the same data directory. The prune runs in its own process, as a user runs it; the
// load is open-loop (bench/lib/paced-load.ts: a request's latency counts from when it was due), so a
// capture held behind a prune batch shows up in full. Reported per phase (before the prune, while it
// runs, after it): answers, resets and other failures, latency p50 / p99 / max. The correctness check:
// no failure at all, and every request answered from the prune's start on is a row after it. Also
// reported: how many of the generated rows went and how fast, and the largest the write-ahead log grew.
// --prune-seconds N stops the prune (SIGTERM) after N seconds, for a run shorter than a whole prune:
// batches are transactions, so what it deleted stays deleted and the database stays sound.
import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase } from '../src-main/core/store/sqlite';
import { DATABASE_FILE } from '../src-main/core/store/sqlite';
import { startChild } from './lib/child';
import { deskCommand, startServe, type DeskCommand } from './lib/desk-cli';
import { BENCH_SECRET } from './lib/exchange-rows';
import { filledHome } from './lib/filled-home';
import { OWN_STALL_MS, pacedLoad } from './lib/paced-load';
import { distinctDepositId, distinctPay } from './lib/payload';
import { fmtInt, fmtMs, percentile } from './lib/stats';
import { table } from './lib/table';

const KEEP = 1_000;
const CONNECTIONS = 16;
/** Every answer slower than this is listed with its time relative to the prune's start. */
const SLOW_MS = 100;

export interface PruneBenchOptions {
  rows: number;
  rate: number;
  quick: boolean;
  fromSource: boolean;
  /** Keep the filled log here and prune a copy of it (the next run skips the fill). */
  storeDir: string | null;
  /** Stop the prune after this many seconds; null: let it finish. */
  pruneSeconds: number | null;
  scratch: string;
  log: (line: string) => void;
}

export interface PrunePhase {
  name: 'before' | 'during' | 'after';
  answered: number;
  failed: number;
  non2xx: number;
  p50: number;
  p99: number;
  max: number;
}

export interface PruneBenchResult {
  rows: number;
  rate: number;
  connections: number;
  deskLabel: string;
  pruneSeconds: number;
  /** The prune was stopped at --prune-seconds, before it finished. */
  pruneStopped: boolean;
  pruneOutput: string;
  remainingAfter: number;
  /** Of the generated rows (all older than the prune's edge), how many were deleted. */
  generatedDeleted: number;
  /** The largest size of the write-ahead log seen during the prune (sampled every 250 ms), in bytes. */
  maxWalBytes: number;
  phases: PrunePhase[];
  /** The slowest answer of each second with answers slower than SLOW_MS: ms after the prune started (negative: before) and latency. */
  slow: SlowAnswer[];
  /** The load generator's own stalls over OWN_STALL_MS after the warm-up (ms after the prune started, length). */
  generatorStalls: Array<{ atMs: number; ms: number }>;
  /** Answers slower than SLOW_MS, all phases. */
  slowCount: number;
  /** Requests that got no answer (refused, reset, cut): ms after the prune started, why, and whether the proxy recorded it. */
  failedAt: Array<{ atMs: number; reason: string; row: boolean }>;
  /** Requests still waiting for an answer when the load stopped (not counted in any phase), and the longest wait among them, ms. */
  unansweredAtStop: number;
  longestWaitAtStop: number;
  /** 2XX answers without their row afterwards that the prune had no right to delete (newer than its edge). */
  answeredWithoutRow: number;
  allRecorded: boolean;
}

/** `own`: the load generator itself stalled while this answer was due, so part of its latency is the generator's. */
interface SlowAnswer {
  atMs: number;
  ms: number;
  own: boolean;
}

interface Sample {
  index: number;
  due: number;
  ms: number | null;
  status: number;
  /** Why it got no answer (paced-load.ts). */
  reason?: string;
}

function phaseOf(name: PrunePhase['name'], samples: readonly Sample[]): PrunePhase {
  const ok = samples.filter((s) => s.ms !== null && s.status >= 200 && s.status < 300).map((s) => s.ms!);
  return {
    name,
    answered: ok.length,
    failed: samples.filter((s) => s.ms === null).length,
    non2xx: samples.filter((s) => s.ms !== null && (s.status < 200 || s.status >= 300)).length,
    p50: percentile(ok, 50),
    p99: percentile(ok, 99),
    max: ok.length === 0 ? Number.NaN : ok.reduce((a, b) => Math.max(a, b)),
  };
}

interface PruneRun {
  seconds: number;
  output: string;
  code: number | null;
  stopped: boolean;
  maxWalBytes: number;
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Runs the prune in its own process (stopped after `limitSeconds`, if given); resolves when it exits. */
async function prune(desk: DeskCommand, home: string, limitSeconds: number | null): Promise<PruneRun> {
  const t0 = performance.now();
  const child = startChild(process.execPath, [...desk.nodeArgs, '--home', home, 'prune', '--keep', String(KEEP)], { env: { WAGER_DESK_HOME: home } });
  let stopped = false;
  const limit = limitSeconds === null ? null : setTimeout(() => ((stopped = true), child.proc.kill('SIGTERM')), limitSeconds * 1000);
  let maxWalBytes = 0;
  const sampler = setInterval(() => (maxWalBytes = Math.max(maxWalBytes, fileSize(join(home, `${DATABASE_FILE}-wal`)))), 250);
  const code = await new Promise<number | null>((resolve) => child.proc.on('exit', resolve));
  clearTimeout(limit ?? undefined);
  clearInterval(sampler);
  return { seconds: (performance.now() - t0) / 1000, output: child.output().trim(), code, stopped, maxWalBytes };
}

/** The deposit ids recorded for inbound rows of this load (its users share the tag). */
function recordedDeposits(home: string, tag: string): Set<string> {
  const db = openDatabase(join(home, DATABASE_FILE), { readonly: true });
  try {
    const ids = db.prepare(`SELECT deposit_id FROM exchanges WHERE direction = 'inbound' AND user_id LIKE ?`).pluck().all(`${tag}-%`) as string[];
    return new Set(ids);
  } finally {
    db.close();
  }
}

/** All rows left, and those left of the `generated` rows the log started with (ids 1 to `generated`). */
function remaining(home: string, generated: number): { all: number; generated: number } {
  const db = openDatabase(join(home, DATABASE_FILE), { readonly: true });
  try {
    return {
      all: db.prepare('SELECT count(*) FROM exchanges').pluck().get() as number,
      generated: db.prepare('SELECT count(*) FROM exchanges WHERE id <= ?').pluck().get(generated) as number,
    };
  } finally {
    db.close();
  }
}

/** A data directory with the filled log: the scratch one, or a copy of the one kept in --store-dir. */
function prunableHome(o: PruneBenchOptions): string {
  if (o.storeDir === null) return filledHome(o.scratch, o.rows, o.log);
  const source = join(resolve(o.storeDir), `filled-${o.rows}`);
  if (!existsSync(join(source, DATABASE_FILE))) filledHome(resolve(o.storeDir), o.rows, o.log);
  const home = join(o.scratch, 'prune-home');
  mkdirSync(home, { recursive: true });
  o.log(`  copying the log kept in ${source}`);
  for (const file of [DATABASE_FILE, `${DATABASE_FILE}-wal`]) {
    if (!existsSync(join(source, file))) continue;
    copyFileSync(join(source, file), join(home, file));
    // On the disk before serve starts, as a user's log is: left dirty in the page cache, the copy's
    // gigabyte would be written back by the first fsync of the file (a checkpoint's), and the answers
    // waiting on the disk meanwhile would be counted against the prune.
    const fd = openSync(join(home, file), 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  return home;
}

export async function runPruneBench(o: PruneBenchOptions): Promise<PruneBenchResult> {
  const home = prunableHome(o);
  const desk = await deskCommand(o.fromSource);
  o.log(`  desk: ${desk.label}`);
  // The first seconds warm serve up (JIT, page cache) and count in no phase.
  const warmupSeconds = o.quick ? 1 : 5;
  const beforeSeconds = o.quick ? 2 : 10;
  const afterSeconds = o.quick ? 1 : 15;
  const maxSeconds = o.quick ? 60 : 20 * 60;
  const tag = `prune-load-${process.pid}`;
  // Enough distinct pays for the longest run the deadline allows; each its own deposit, so each answer can be found as a row.
  const amount = Math.min(o.rate * maxSeconds, 400_000);
  const serve = await startServe(desk, { home, upstream: null, secret: BENCH_SECRET, ui: false });
  const samples: Sample[] = [];
  /** Requests still waiting for their answer when the load stopped. */
  const waiting: Array<{ due: number; ms: number }> = [];
  /** The load generator's own stalls (performance.now(), ms): answers read late through no fault of serve. */
  const ownStalls: Array<{ at: number; ms: number }> = [];
  const stop = new AbortController();
  try {
    const started = performance.now();
    const running = pacedLoad(serve.proxyUrl, (i) => distinctPay(tag, i), CONNECTIONS, amount, o.rate, maxSeconds, {
      stalled: (at, ms) => void ownStalls.push({ at, ms }),
      answered: (index, due, ms, status) => void samples.push({ index, due, ms, status }),
      failed: (index, due, reason) => void samples.push({ index, due, ms: null, status: 0, reason }),
      unanswered: (_index, due, ms) => void waiting.push({ due, ms }),
      stop: stop.signal,
    });
    await new Promise((r) => setTimeout(r, (warmupSeconds + beforeSeconds) * 1000));
    o.log(
      `  load: ${o.rate} req/s over ${CONNECTIONS} keep-alive connections; prune --keep ${KEEP} starts after ${warmupSeconds} s of warm-up and ${beforeSeconds} s measured`,
    );
    const pruneStart = performance.now();
    const pruned = await prune(desk, home, o.pruneSeconds);
    const pruneEnd = performance.now();
    o.log(`  prune: ${pruned.seconds.toFixed(1)} s${pruned.stopped ? ' (stopped)' : ''}: ${pruned.output.split('\n')[0] ?? ''}`);
    await new Promise((r) => setTimeout(r, afterSeconds * 1000));
    stop.abort();
    const load = await running;
    await serve.child.stop();
    const byPhase = (from: number, to: number): Sample[] => samples.filter((s) => s.due >= from && s.due < to);
    const phases = [
      phaseOf('before', byPhase(started + warmupSeconds * 1000, pruneStart)),
      phaseOf('during', byPhase(pruneStart, pruneEnd)),
      phaseOf('after', byPhase(pruneEnd, Number.POSITIVE_INFINITY)),
    ];
    const recorded = recordedDeposits(home, tag);
    const answeredOk = samples.filter((s) => s.ms !== null && s.status >= 200 && s.status < 300);
    const hasRow = (s: Sample): boolean => recorded.has(distinctDepositId(tag, s.index));
    // The prune fixes its edge (the newest row beyond --keep) when it starts deleting, a moment after its
    // process started, so rows of this load older than the edge go with the rest. A row is written
    // before its answer, so a request sent after a kept row was answered is newer than the edge and must
    // have stayed: a missing one is a lost row. (Due times are at or before the send: no false alarm.)
    const firstKeptAnswer = answeredOk.filter(hasRow).reduce((first, s) => Math.min(first, s.due + s.ms!), Number.POSITIVE_INFINITY);
    const missing = answeredOk.filter((s) => !hasRow(s));
    const answeredWithoutRow = missing.filter((s) => s.due > firstKeptAnswer).length;
    // One answer a stall: answers held by the same stall are released together, so the slowest of each
    // second stands for it; the 20 longest stalls are listed.
    const slowest = new Map<number, SlowAnswer>();
    for (const s of samples) {
      const ms = s.ms;
      if (ms === null || ms <= SLOW_MS) continue;
      const own = ownStalls.some((g) => g.at < s.due + ms && g.at + g.ms > s.due);
      const at = { atMs: s.due - pruneStart, ms, own };
      const second = Math.floor((at.atMs + at.ms) / 1000);
      if ((slowest.get(second)?.ms ?? 0) < at.ms) slowest.set(second, at);
    }
    const slow = [...slowest.values()].sort((a, b) => b.ms - a.ms).slice(0, 20);
    const longestWait = waiting.reduce((most, w) => Math.max(most, w.ms), 0);
    const failedAt = samples.filter((s) => s.ms === null).map((s) => ({ atMs: s.due - pruneStart, reason: s.reason ?? '', row: hasRow(s) }));
    const slowCount = samples.filter((s) => s.ms !== null && s.ms > SLOW_MS).length;
    const generatorStalls = ownStalls.filter((g) => g.at >= started + warmupSeconds * 1000).map((g) => ({ atMs: g.at - pruneStart, ms: g.ms }));
    const failures = samples.filter((s) => s.ms === null).length;
    const left = remaining(home, o.rows);
    o.log(
      `  rows check prune: answered=${answeredOk.length} kept=${answeredOk.length - missing.length} pruned with the old rows=${missing.length - answeredWithoutRow} lost=${answeredWithoutRow}; failures=${failures}`,
    );
    return {
      rows: o.rows,
      rate: o.rate,
      connections: CONNECTIONS,
      deskLabel: desk.label,
      pruneSeconds: pruned.seconds,
      pruneStopped: pruned.stopped,
      pruneOutput: pruned.output,
      remainingAfter: left.all,
      generatedDeleted: o.rows - left.generated,
      maxWalBytes: pruned.maxWalBytes,
      phases,
      slow,
      slowCount,
      generatorStalls,
      failedAt,
      unansweredAtStop: waiting.length,
      longestWaitAtStop: longestWait,
      answeredWithoutRow,
      allRecorded: failures === 0 && answeredWithoutRow === 0 && load.non2xx === 0 && (pruned.code === 0 || pruned.stopped),
    };
  } finally {
    stop.abort();
    await serve.child.stop();
  }
}

export function formatPruneResult(r: PruneBenchResult): string {
  const rows = r.phases.map((p) => [p.name, fmtInt(p.answered), fmtInt(p.failed), fmtInt(p.non2xx), fmtMs(p.p50), fmtMs(p.p99), fmtMs(p.max)]);
  const slow =
    r.slow.length === 0
      ? `no answer slower than ${SLOW_MS} ms`
      : `${fmtInt(r.slowCount)} answers slower than ${SLOW_MS} ms; the slowest of each second (ms after the prune started: latency; * the load generator stalled meanwhile): ${r.slow.map((s) => `${Math.round(s.atMs)}: ${fmtMs(s.ms)}${s.own ? '*' : ''}`).join(', ')}`;
  const longest = [...r.generatorStalls].sort((a, b) => b.ms - a.ms).slice(0, 5);
  const own =
    longest.length === 0
      ? `the load generator never stalled over ${OWN_STALL_MS} ms`
      : `the load generator's own stalls over ${OWN_STALL_MS} ms: ${fmtInt(r.generatorStalls.length)}, the longest (ms after the prune started: length): ${longest.map((g) => `${Math.round(g.atMs)}: ${fmtMs(g.ms)}`).join(', ')}`;
  return `${table(['phase', 'answered', 'failed', 'non-2XX', 'p50', 'p99', 'max'], rows)}
prune --keep ${KEEP} of ${fmtInt(r.rows)} rows: ${r.pruneSeconds.toFixed(1)} s${r.pruneStopped ? ' (stopped there)' : ''}, ${fmtInt(r.generatedDeleted)} generated rows deleted (${fmtInt(r.generatedDeleted / r.pruneSeconds)} a second), ${fmtInt(r.remainingAfter)} rows left; ${r.rate} req/s over ${r.connections} connections
largest write-ahead log during the prune: ${(r.maxWalBytes / 1024 / 1024).toFixed(1)} MiB
${slow}
${own}
answers without their row: ${r.answeredWithoutRow}
${r.unansweredAtStop === 0 ? 'no request still waiting when the load stopped' : `${fmtInt(r.unansweredAtStop)} requests still waiting for their answer when the load stopped (in no phase above), the longest for ${fmtMs(r.longestWaitAtStop)}`}
${r.failedAt.length === 0 ? 'no request without an answer' : `requests without an answer (refused, reset or cut), ms after the prune started: ${r.failedAt.map((f) => `${Math.round(f.atMs)} (${f.reason}; ${f.row ? 'recorded' : 'no row'})`).join(', ')}`}
(${r.deskLabel})`;
}
