// Benchmark 1: proxy throughput and latency. The same signed pay callback, the same connection counts,
// the same stand-in upstream (its own process), through: the bare Node forwarder (the floor), Wager
// Desk's `serve` in forward mode, in sandbox mode, and mitmdump in reverse mode where installed. Each
// proxy under test runs in its own fresh process; the desk's database is counted afterwards: every
// request the load generator got an answer to must be a row, and every forwarded one reached the upstream.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchArgs } from './lib/args';
import { freePort, startChild, waitForPort, type Child } from './lib/child';
import { countRows, deskCommand, startServe, type DeskCommand, type RowCounts } from './lib/desk-cli';
import { BENCH_SECRET } from './lib/exchange-rows';
import { load, type LoadResult } from './lib/load';
import { processCpuMs } from './lib/proc-cpu';
import { signedPay } from './lib/payload';
import { fmtInt, fmtMs, fmtRatio, percentile, ratio } from './lib/stats';
import { table } from './lib/table';

export type ProxyTarget = 'floor' | 'desk-forward' | 'desk-sandbox' | 'mitmdump';

const LABELS: Record<ProxyTarget, string> = {
  floor: 'bare Node forwarder (floor)',
  'desk-forward': 'Wager Desk, forward mode',
  'desk-sandbox': 'Wager Desk, sandbox mode',
  mitmdump: 'mitmdump --mode reverse',
};

/** One measurement: a fresh process of the proxy under test, a warm-up, the measured load, the count. */
export interface ProxyRun {
  round: number;
  warmup: LoadResult;
  load: LoadResult;
  /** What the desk recorded (desk rows only). */
  rows: RowCounts | null;
  /** Requests the upstream received from this proxy (forwarding rows only). */
  upstreamServed: number | null;
  /** Desk rows: inbound rows == requests answered (warm-up included), all answered; forward: upstream got them all. */
  recorded: boolean | null;
  /** CPU the proxy's process (all threads) spent per answered request of the measured load, in µs; null without /proc. */
  cpuUs: number | null;
}

/** One proxy at one connection count: the median of its rounds. */
export interface ProxyRow {
  target: ProxyTarget;
  label: string;
  connections: number;
  runs: ProxyRun[];
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  recorded: boolean | null;
  vsFloor: number | null;
  vsMitmdump: number | null;
  addedP50Ms: number | null;
  /** Median CPU µs per request, and its ratio to the floor's within each round (more is costlier). */
  cpuUs: number | null;
  cpuVsFloor: number | null;
}

export interface ProxyBenchResult {
  desk: string;
  mitmdump: string;
  requests: number;
  rounds: number;
  connections: number[];
  rows: ProxyRow[];
  /** Every desk run recorded every request. */
  allRecorded: boolean;
}

export interface ProxyBenchOptions extends BenchArgs {
  scratch: string;
  log(line: string): void;
}

const SCRIPTS = new URL('./servers/', import.meta.url);

function mitmdumpVersion(): string | null {
  try {
    const out = execFileSync('mitmdump', ['--version'], { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'ignore'] });
    return /Mitmproxy:\s*(\S+)/i.exec(out)?.[1] ?? out.split('\n')[0]!.trim();
  } catch {
    return null;
  }
}

async function upstreamCount(upstream: string): Promise<number> {
  const res = await fetch(new URL('/__bench/count', upstream));
  return ((await res.json()) as { served: number }).served;
}

interface Running {
  url: string;
  child: Child;
  home: string | null;
}

async function startTarget(target: ProxyTarget, upstream: string, desk: DeskCommand, o: ProxyBenchOptions, tag: string): Promise<Running> {
  switch (target) {
    case 'floor': {
      const child = startChild(process.execPath, [new URL('bare-forwarder.mjs', SCRIPTS).pathname, upstream]);
      const m = await child.waitFor(/^proxy: (http:\/\/\S+)$/m, 20_000);
      return { url: m[1]!, child, home: null };
    }
    case 'desk-forward':
    case 'desk-sandbox': {
      const home = join(o.scratch, `proxy-${tag}`);
      mkdirSync(home, { recursive: true });
      const serve = await startServe(desk, {
        home,
        upstream: target === 'desk-forward' ? upstream : null,
        secret: BENCH_SECRET,
        ui: false,
        cpuProfDir: o.cpuProf ? join(o.cpuProf, tag) : null,
      });
      return { url: serve.proxyUrl, child: serve.child, home };
    }
    case 'mitmdump': {
      const port = await freePort();
      const child = startChild('mitmdump', ['--mode', `reverse:${upstream}`, '--listen-host', '127.0.0.1', '--listen-port', String(port), '-q']);
      await waitForPort(port, 30_000, () => child.proc.exitCode === null);
      return { url: `http://127.0.0.1:${port}`, child, home: null };
    }
  }
}

export async function runProxyBench(o: ProxyBenchOptions): Promise<ProxyBenchResult> {
  const desk = await deskCommand(o.fromSource);
  const mitm = o.noMitm ? null : mitmdumpVersion();
  o.log(`desk: ${desk.label}`);
  o.log(`mitmdump: ${o.noMitm ? 'skipped (--no-mitm)' : (mitm ?? 'not installed')}`);
  const payload = signedPay();
  o.log(`load: POST ${payload.path}, ${payload.body.length}-byte signed pay body, ${fmtInt(o.requests)} requests a run (+ warm-up), at most ${o.maxSeconds} s a run`);
  const targets: ProxyTarget[] = ['floor', 'desk-forward', 'desk-sandbox', ...(mitm ? (['mitmdump'] as const) : [])];
  const upstreamChild = startChild(process.execPath, [new URL('upstream.mjs', SCRIPTS).pathname]);
  const runs = new Map<string, ProxyRun[]>();
  const measureOnce = async (target: ProxyTarget, connections: number, round: number, upstream: string): Promise<ProxyRun> => {
    const tag = `${target}-c${connections}${o.rounds > 1 ? `-r${round}` : ''}`;
    const running = await startTarget(target, upstream, desk, o, tag);
    let warmup: LoadResult;
    let measured: LoadResult;
    let cpuUs: number | null = null;
    const before = await upstreamCount(upstream);
    try {
      warmup = await load(running.url, payload, connections, Math.max(connections * 4, Math.floor(o.requests / 10)), o.maxSeconds);
      const cpuBefore = processCpuMs(running.child.pid);
      measured = await load(running.url, payload, connections, o.requests, o.maxSeconds);
      const cpuAfter = processCpuMs(running.child.pid);
      cpuUs = cpuBefore !== null && cpuAfter !== null && measured.completed > 0 ? ((cpuAfter - cpuBefore) * 1000) / measured.completed : null;
    } finally {
      const code = await running.child.stop();
      if (code !== '0' && code !== 'SIGTERM' && running.home) o.log(`  ${tag}: serve exited with ${code}`);
    }
    const served = (await upstreamCount(upstream)) - before;
    const answered = warmup.completed + measured.completed;
    const counts = running.home ? countRows(running.home) : null;
    const forwards = target !== 'desk-sandbox';
    let recorded: boolean | null = null;
    if (counts) {
      const sent = warmup.sent + measured.sent;
      // Cut short by the time bound: requests in flight may or may not have arrived.
      const rowsOk = measured.cutShort || warmup.cutShort ? counts.inbound >= answered && counts.inbound <= sent : counts.inbound === answered;
      recorded = rowsOk && counts.answered === counts.inbound && (!forwards || served === counts.inbound);
    }
    o.log(
      `  ${tag}: ${fmtInt(measured.rps)} req/s, p50 ${fmtMs(measured.p50)}, p99 ${fmtMs(measured.p99)}` +
        (cpuUs !== null ? `, ${cpuUs.toFixed(1)} µs CPU/request` : '') +
        (counts ? `, rows ${fmtInt(counts.inbound)} of ${fmtInt(answered)} answered` : '') +
        (forwards ? `, upstream got ${fmtInt(served)}` : ''),
    );
    return { round, warmup, load: measured, rows: counts, upstreamServed: forwards ? served : null, recorded, cpuUs };
  };
  try {
    const upstream = (await upstreamChild.waitFor(/^upstream: (http:\/\/\S+)$/m, 20_000))[1]!;
    // Rounds go around every proxy in turn, so a burst of load from elsewhere on the machine hits all alike.
    for (let round = 1; round <= o.rounds; round++) {
      for (const connections of o.connections) {
        for (const target of targets) {
          const key = `${target}@${connections}`;
          runs.set(key, [...(runs.get(key) ?? []), await measureOnce(target, connections, round, upstream)]);
        }
      }
    }
  } finally {
    await upstreamChild.stop();
  }
  const rows: ProxyRow[] = o.connections.flatMap((connections) =>
    targets.map((target) => {
      const mine = runs.get(`${target}@${connections}`) ?? [];
      const recorded = mine.some((r) => r.recorded !== null) ? mine.every((r) => r.recorded === true) : null;
      return {
        target,
        label: LABELS[target],
        connections,
        runs: mine,
        rps: median(mine.map((r) => r.load.rps)),
        p50: median(mine.map((r) => r.load.p50)),
        p99: median(mine.map((r) => r.load.p99)),
        errors: mine.reduce((a, r) => a + r.load.errors + r.load.timeouts + r.load.non2xx + r.warmup.errors + r.warmup.timeouts + r.warmup.non2xx, 0),
        recorded,
        vsFloor: null,
        vsMitmdump: null,
        addedP50Ms: null,
        cpuUs: mine.every((r) => r.cpuUs !== null) && mine.length > 0 ? median(mine.map((r) => r.cpuUs!)) : null,
        cpuVsFloor: null,
      };
    }),
  );
  // Ratios are taken within each round (the same minutes of the machine), then their median.
  const perRound = (row: ProxyRow, peer: ProxyRow | undefined, f: (mine: ProxyRun, theirs: ProxyRun) => number | null): number | null => {
    if (!peer) return null;
    const values = row.runs.flatMap((run) => {
      const other = peer.runs.find((p) => p.round === run.round);
      const v = other ? f(run, other) : null;
      return v === null ? [] : [v];
    });
    return values.length > 0 ? median(values) : null;
  };
  for (const row of rows) {
    const floor = rows.find((r) => r.target === 'floor' && r.connections === row.connections);
    const mitmRow = rows.find((r) => r.target === 'mitmdump' && r.connections === row.connections);
    row.vsFloor = perRound(row, floor, (a, b) => ratio(a.load.rps, b.load.rps));
    row.vsMitmdump = perRound(row, mitmRow, (a, b) => ratio(a.load.rps, b.load.rps));
    row.addedP50Ms = perRound(row, floor, (a, b) => a.load.p50 - b.load.p50);
    row.cpuVsFloor = perRound(row, floor, (a, b) => ratio(a.cpuUs, b.cpuUs));
  }
  return {
    desk: desk.label,
    mitmdump: o.noMitm ? 'skipped' : (mitm ?? 'not installed'),
    requests: o.requests,
    rounds: o.rounds,
    connections: o.connections,
    rows,
    allRecorded: rows.every((r) => r.recorded !== false),
  };
}

function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

export function formatProxyResult(r: ProxyBenchResult): string {
  const body = r.rows.map((row) => [
    row.label,
    String(row.connections),
    fmtInt(row.rps),
    fmtMs(row.p50),
    fmtMs(row.p99),
    fmtRatio(row.vsFloor),
    fmtRatio(row.vsMitmdump),
    row.addedP50Ms === null || row.target === 'floor' ? '-' : `${row.addedP50Ms >= 0 ? '+' : ''}${fmtMs(row.addedP50Ms)}`,
    row.cpuUs === null ? '-' : `${row.cpuUs.toFixed(1)} µs`,
    fmtRatio(row.cpuVsFloor),
    String(row.errors),
    row.runs.map((x) => fmtInt(x.load.rps)).join(' / '),
  ]);
  const checks = r.rows.flatMap((row) =>
    row.runs
      .filter((run) => run.rows !== null)
      .map((run) => {
        const answered = run.warmup.completed + run.load.completed;
        const upstream = run.upstreamServed === null ? '' : `, upstream received ${run.upstreamServed}`;
        const round = r.rounds > 1 ? ` r${run.round}` : '';
        return `rows check ${row.target} c${row.connections}${round}: requests=${answered} rows=${run.rows!.inbound} answered=${run.rows!.answered} valid=${run.rows!.valid}${upstream}: ${run.recorded ? 'ok' : 'MISMATCH'}`;
      }),
  );
  return [
    `${r.rounds > 1 ? `median of ${r.rounds} rounds (ratios and added p50: taken within each round, then the median); ` : ''}${fmtInt(r.requests)} requests a run after a warm-up`,
    table(['proxy', 'conns', 'req/s', 'p50', 'p99', 'vs floor', 'vs mitmdump', 'p50 over floor', 'CPU/req', 'CPU vs floor', 'errors', 'req/s each round'], body),
    '',
    ...checks,
  ].join('\n');
}
