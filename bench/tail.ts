// Benchmark: `wager-desk tail` against the proxy at full load. One `serve` (forward mode, its own
// process) and the stand-in upstream; rounds alternate a closed-loop load without a tail process and
// the same load with `tail --json` following the same database from a third process. Reported: the
// proxy's req/s with and without (and their ratio within each round: the tail's cost to the proxy),
// the lines the tail printed against the rows recorded meanwhile (none lost), the lag of each line
// (printed time minus the time its answer was recorded) in the first and second half of the load (a
// lag that grows would show here), and the last line's lag.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, DATABASE_FILE } from '../src-main/core/store/sqlite';
import type { BenchArgs } from './lib/args';
import { deskCommand, ROOT, startServe, type DeskCommand } from './lib/desk-cli';
import { BENCH_SECRET } from './lib/exchange-rows';
import { load } from './lib/load';
import { signedPay } from './lib/payload';
import { fmtInt, fmtMs, fmtRatio, percentile, ratio } from './lib/stats';
import { table } from './lib/table';
import { startUpstream } from './lib/upstream';
import { processCpuMs } from './lib/proc-cpu';

export interface TailRound {
  round: number;
  rpsWithout: number;
  rpsWith: number;
  /** rpsWith / rpsWithout within the round. */
  ratio: number | null;
  /** CPU the proxy's process spent per request without and with the tail (µs; null without /proc): steadier than req/s on a shared machine. */
  cpuUsWithout: number | null;
  cpuUsWith: number | null;
  /** CPU the tail process spent per line it printed (µs). */
  tailCpuUsPerLine: number | null;
  rowsRecorded: number;
  linesSeen: number;
  /** Lag of the lines printed during the first half of the load, and from its middle to the last line (catching up included), p50 and p99, ms. */
  lagFirstHalf: { p50: number; p99: number };
  lagSecondHalf: { p50: number; p99: number };
  /** The last line's lag, ms: what the tail still owed when the load stopped. */
  lastLagMs: number;
}

export interface TailBenchResult {
  desk: string;
  requests: number;
  connections: number;
  rounds: TailRound[];
  medianRatio: number | null;
  /** Median within-round ratio of the proxy's CPU per request with the tail to without (more is costlier). */
  medianCpuRatio: number | null;
  /** Every round's tail printed exactly the rows recorded. */
  noneLost: boolean;
}

export interface TailBenchOptions extends BenchArgs {
  scratch: string;
  log(line: string): void;
}

interface TailChild {
  proc: ChildProcess;
  lines: number;
  /** [time the line was read, lag ms] per line. */
  lags: Array<[number, number]>;
  waitForLines(n: number, timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

function startTail(cmd: DeskCommand, home: string): Promise<TailChild> {
  const proc = spawn(process.execPath, [...cmd.nodeArgs, '--home', home, 'tail', '--json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  let partial = '';
  const watchers = new Set<() => void>();
  const t: TailChild = {
    proc,
    lines: 0,
    lags: [],
    waitForLines: (n, timeoutMs) =>
      new Promise((resolve) => {
        const check = (): void => {
          if (t.lines < n) return;
          clearTimeout(timer);
          watchers.delete(check);
          resolve(true);
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          resolve(false);
        }, timeoutMs);
        watchers.add(check);
        check();
      }),
    stop: async () => {
      proc.kill('SIGINT');
      await exited;
    },
  };
  proc.stdout!.on('data', (chunk: Buffer) => {
    const now = Date.now();
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      if (line === '') continue;
      const x = JSON.parse(line) as { at: string; durationMs: number | null };
      t.lines++;
      t.lags.push([now, now - (Date.parse(x.at) + (x.durationMs ?? 0))]);
    }
    for (const w of [...watchers]) w();
  });
  return new Promise((resolve, reject) => {
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('following the exchange log')) resolve(t);
    });
    void exited.then(() => reject(new Error(`tail exited before following:\n${err}`)));
  });
}

function inboundRows(home: string): number {
  const db = openDatabase(join(home, DATABASE_FILE), { readonly: true });
  try {
    return db.prepare(`SELECT count(*) FROM exchanges WHERE direction = 'inbound'`).pluck().get() as number;
  } finally {
    db.close();
  }
}

function lagOf(lags: ReadonlyArray<[number, number]>, from: number, to: number): { p50: number; p99: number } {
  const xs = lags.filter(([at]) => at >= from && at < to).map(([, lag]) => lag);
  return { p50: percentile(xs, 50), p99: percentile(xs, 99) };
}

export async function runTailBench(o: TailBenchOptions): Promise<TailBenchResult> {
  const desk = await deskCommand(o.fromSource);
  const connections = o.connections[0]!;
  o.log(`desk: ${desk.label}`);
  o.log(
    `load: ${fmtInt(o.requests)} signed pay callbacks a phase over ${connections} connections, forward mode; rounds alternate without and with a tail process`,
  );
  const upstreamServer = startUpstream();
  const home = join(o.scratch, 'tail');
  mkdirSync(home, { recursive: true });
  const rounds: TailRound[] = [];
  const payload = signedPay();
  try {
    const upstream = await upstreamServer.url;
    const serve = await startServe(desk, { home, upstream, secret: BENCH_SECRET, ui: false });
    try {
      await load(serve.proxyUrl, payload, connections, Math.max(connections * 4, Math.floor(o.requests / 10)), o.maxSeconds);
      for (let round = 1; round <= o.rounds; round++) {
        // Without, then with, then (next round) with first: a drift of the machine falls on both alike.
        const order = round % 2 === 1 ? (['without', 'with'] as const) : (['with', 'without'] as const);
        let rpsWithout = 0;
        let rpsWith = 0;
        let cpuUsWithout: number | null = null;
        let cpuUsWith: number | null = null;
        let tailCpuUsPerLine: number | null = null;
        const cpuPerRequest = (before: number | null, after: number | null, n: number): number | null =>
          before !== null && after !== null && n > 0 ? ((after - before) * 1000) / n : null;
        let tailRound: Omit<TailRound, 'round' | 'rpsWithout' | 'rpsWith' | 'ratio' | 'cpuUsWithout' | 'cpuUsWith' | 'tailCpuUsPerLine'> | null = null;
        for (const phase of order) {
          if (phase === 'without') {
            const cpuBefore = processCpuMs(serve.child.pid);
            const r = await load(serve.proxyUrl, payload, connections, o.requests, o.maxSeconds);
            rpsWithout = r.rps;
            cpuUsWithout = cpuPerRequest(cpuBefore, processCpuMs(serve.child.pid), r.completed);
            continue;
          }
          const tail = await startTail(desk, home);
          const before = inboundRows(home);
          const startedAt = Date.now();
          const cpuBefore = processCpuMs(serve.child.pid);
          const tailCpuBefore = processCpuMs(tail.proc.pid ?? -1);
          const r = await load(serve.proxyUrl, payload, connections, o.requests, o.maxSeconds);
          const endedAt = Date.now();
          rpsWith = r.rps;
          cpuUsWith = cpuPerRequest(cpuBefore, processCpuMs(serve.child.pid), r.completed);
          const recorded = inboundRows(home) - before;
          await tail.waitForLines(recorded, 30_000);
          tailCpuUsPerLine = cpuPerRequest(tailCpuBefore, processCpuMs(tail.proc.pid ?? -1), tail.lines);
          // Anything more would be a row printed twice: give it a moment to show, by the tail's own poll interval.
          await tail.waitForLines(recorded + 1, 500);
          await tail.stop();
          const mid = startedAt + (endedAt - startedAt) / 2;
          tailRound = {
            rowsRecorded: recorded,
            linesSeen: tail.lines,
            lagFirstHalf: lagOf(tail.lags, startedAt, mid),
            lagSecondHalf: lagOf(tail.lags, mid, Number.POSITIVE_INFINITY),
            lastLagMs: tail.lags.length > 0 ? tail.lags[tail.lags.length - 1]![1] : Number.NaN,
          };
        }
        const row: TailRound = { round, rpsWithout, rpsWith, ratio: ratio(rpsWith, rpsWithout), cpuUsWithout, cpuUsWith, tailCpuUsPerLine, ...tailRound! };
        o.log(
          `  round ${round}: ${fmtInt(rpsWithout)} req/s without, ${fmtInt(rpsWith)} with (${fmtRatio(row.ratio)}); ` +
            `tail printed ${fmtInt(row.linesSeen)} of ${fmtInt(row.rowsRecorded)} rows; lag p50 ${fmtMs(row.lagFirstHalf.p50)} then ${fmtMs(row.lagSecondHalf.p50)}; last line's lag ${fmtMs(row.lastLagMs)}`,
        );
        rounds.push(row);
      }
    } finally {
      await serve.child.stop();
    }
  } finally {
    await upstreamServer.child.stop();
  }
  const ratios = rounds.map((r) => r.ratio).filter((r): r is number => r !== null);
  return {
    desk: desk.label,
    requests: o.requests,
    connections,
    rounds,
    medianRatio: ratios.length > 0 ? percentile(ratios, 50) : null,
    medianCpuRatio: (() => {
      const xs = rounds.map((x) => ratio(x.cpuUsWith, x.cpuUsWithout)).filter((x): x is number => x !== null);
      return xs.length > 0 ? percentile(xs, 50) : null;
    })(),
    noneLost: rounds.every((r) => r.linesSeen === r.rowsRecorded),
  };
}

export function formatTailResult(r: TailBenchResult): string {
  const body = r.rounds.map((x) => [
    String(x.round),
    fmtInt(x.rpsWithout),
    fmtInt(x.rpsWith),
    fmtRatio(x.ratio),
    x.cpuUsWithout === null ? '-' : `${x.cpuUsWithout.toFixed(0)} µs`,
    x.cpuUsWith === null ? '-' : `${x.cpuUsWith.toFixed(0)} µs`,
    x.tailCpuUsPerLine === null ? '-' : `${x.tailCpuUsPerLine.toFixed(0)} µs`,
    `${fmtInt(x.linesSeen)} / ${fmtInt(x.rowsRecorded)}`,
    `${fmtMs(x.lagFirstHalf.p50)} / ${fmtMs(x.lagFirstHalf.p99)}`,
    `${fmtMs(x.lagSecondHalf.p50)} / ${fmtMs(x.lagSecondHalf.p99)}`,
    fmtMs(x.lastLagMs),
  ]);
  return [
    `${fmtInt(r.requests)} requests a phase over ${r.connections} connections; proxy req/s with a tail process following / without: median ${fmtRatio(r.medianRatio)}; proxy CPU per request with / without: median ${fmtRatio(r.medianCpuRatio)}`,
    table(
      [
        'round',
        'req/s without tail',
        'req/s with tail',
        'with / without',
        'proxy CPU/req without',
        'with',
        'tail CPU/line',
        'lines / rows',
        'lag 1st half p50/p99',
        'lag 2nd half p50/p99',
        'last line lag',
      ],
      body,
    ),
    r.noneLost ? 'check: the tail printed every row recorded, once' : 'check FAILED: the tail printed a different number of lines than rows recorded',
  ].join('\n');
}
