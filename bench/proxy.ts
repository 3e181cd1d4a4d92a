// Benchmark 1: proxy throughput and latency. The same signed pay callback, the same connection counts,
// the same stand-in upstream (its own process), through: the bare Node forwarder (the floor), Wager
// Desk's `serve` in forward mode, in sandbox mode, and mitmdump in reverse mode where installed. Each
// proxy under test runs in its own fresh process; the desk's database is counted afterwards: every
// request the load generator got an answer to must be a row, and every forwarded one reached the upstream.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { BenchArgs } from './lib/args';
import { freePort, startChild, waitForPort, type Child } from './lib/child';
import { baselineCommand, countRows, deskCommand, startServe, type DeskCommand, type RowCounts } from './lib/desk-cli';
import { BENCH_SECRET } from './lib/exchange-rows';
import { load, type LoadResult } from './lib/load';
import { pacedLoad } from './lib/paced-load';
import { seedProfiles } from './lib/profiles';
import { startUpstream } from './lib/upstream';
import { processCpuMs } from './lib/proc-cpu';
import { distinctPays, signedPay, type SignedCallback } from './lib/payload';
import { fmtInt, fmtMs, fmtRatio, percentile, ratio, ratioInterval } from './lib/stats';
import { table } from './lib/table';

export type ProxyTarget = 'floor' | 'desk-forward' | 'desk-forward-baseline' | 'desk-forward-10' | 'desk-sandbox' | 'mitmdump';

/** Profiles on the one proxy of the many-operators row: its ratio to one profile is the routing's cost. */
const MANY_PROFILES = 10;

const LABELS: Record<ProxyTarget, string> = {
  floor: 'bare Node forwarder (floor)',
  'desk-forward': 'Wager Desk, forward mode',
  'desk-forward-baseline': 'Wager Desk, forward mode, --baseline build',
  'desk-forward-10': `Wager Desk, forward mode, ${MANY_PROFILES} profiles`,
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
  /** Ten profiles on one proxy against one (forward mode), req/s within each round, then the median. */
  vsOneProfile?: number | null;
  /** Median CPU µs per request, and its ratio to the floor's within each round (more is costlier). */
  cpuUs: number | null;
  cpuVsFloor: number | null;
}

export interface ProxyBenchResult {
  desk: string;
  /** Every request a user and a deposit of its own (--distinct-keys), or one callback repeated. */
  distinctKeys: boolean;
  mitmdump: string;
  requests: number;
  rounds: number;
  connections: number[];
  rows: ProxyRow[];
  /** The open-loop pass: every proxy but mitmdump at one fixed rate, below saturation. */
  fixedRate: { rate: number; connections: number; rows: ProxyRow[] };
  /** Every desk run recorded every request. */
  allRecorded: boolean;
  /** With --baseline: forward mode's req/s over the baseline build's, per round (alternating order) and median, per connection count. */
  vsBaseline: { dir: string; connections: BaselineRatios[] } | null;
}

export interface ProxyBenchOptions extends BenchArgs {
  scratch: string;
  log(line: string): void;
}

const SCRIPTS = new URL('./servers/', import.meta.url);

/** With --pin: the CPU of the proxy under test, and the CPU of everything else the run starts. */
const PROXY_CPU = 0;
const GENERATOR_CPU = 1;

/** Every thread of process `pid`, and those it starts later, on `cpus` (taskset's list: "1", "0-1"). */
function pinTo(pid: number, cpus: number | string): void {
  try {
    execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', String(cpus), String(pid)], { stdio: 'ignore' });
  } catch (err) {
    throw new Error(`--pin: taskset (util-linux) could not set CPUs ${cpus} for process ${pid}: ${(err as Error).message}`);
  }
}

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
      const child = startChild(process.execPath, [new URL('bare-forwarder.mjs', SCRIPTS).pathname, upstream], { cpu: o.pin ? PROXY_CPU : null });
      const m = await child.waitFor(/^proxy: (http:\/\/\S+)$/m, 20_000);
      return { url: m[1]!, child, home: null };
    }
    case 'desk-forward':
    case 'desk-forward-baseline':
    case 'desk-forward-10':
    case 'desk-sandbox': {
      const home = join(o.scratch, `proxy-${tag}`);
      mkdirSync(home, { recursive: true });
      if (target === 'desk-forward-10') seedProfiles(home, upstream, BENCH_SECRET, MANY_PROFILES);
      const serve = await startServe(target === 'desk-forward-baseline' ? baselineCommand(o.baseline!) : desk, {
        home,
        upstream: target === 'desk-sandbox' ? null : upstream,
        secret: BENCH_SECRET,
        ui: false,
        cpuProfDir: o.cpuProf ? join(o.cpuProf, tag) : null,
        cpu: o.pin ? PROXY_CPU : null,
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
  o.log(
    `load: POST ${payload.path}, ${payload.body.length}-byte signed pay body` +
      (o.distinctKeys ? ', a user and a deposit of its own in every request' : ', the same callback every time') +
      `, ${fmtInt(o.requests)} requests a run after at least ${fmtInt(o.warmup ?? o.requests)} of warm-up, at most ${o.maxSeconds} s a run`,
  );
  // Against a baseline build the question is forward mode's: the other rows are left out.
  const targets: ProxyTarget[] = o.baseline
    ? ['floor', 'desk-forward', 'desk-forward-baseline']
    : ['floor', 'desk-forward', 'desk-forward-10', 'desk-sandbox', ...(mitm ? (['mitmdump'] as const) : [])];
  if (o.baseline) o.log(`baseline: ${baselineCommand(o.baseline).label}, forward mode, the two builds in alternating order round by round`);
  // mitmdump serves about 1,000 req/s here, under the fixed rate: it would measure its queue, not its latency.
  const rateTargets = targets.filter((t) => t !== 'mitmdump' && t !== 'desk-forward-10');
  const rateConnections = o.connections[0]!;
  o.log(`open-loop pass: ${fmtInt(o.rate)} req/s over ${rateConnections} connections, ${rateTargets.join(', ')}`);
  // Pinned: this process (the load generator) and the upstream it starts on one CPU, each proxy on the other.
  if (o.pin) {
    pinTo(process.pid, GENERATOR_CPU);
    o.log(`pinned: the proxy under test on CPU ${PROXY_CPU}; the load generator and the upstream on CPU ${GENERATOR_CPU}`);
  }
  const upstreamServer = startUpstream();
  const runs = new Map<string, ProxyRun[]>();
  /** One run; with a rate, open loop at that rate, the warm-up at least a second and up to five measured. */
  const measureOnce = async (target: ProxyTarget, connections: number, round: number, upstream: string, rate: number | null): Promise<ProxyRun> => {
    const tag = `${target}-c${connections}${rate !== null ? `-at${rate}` : ''}${o.rounds > 1 ? `-r${round}` : ''}`;
    const running = await startTarget(target, upstream, desk, o, tag);
    let warmup: LoadResult;
    let measured: LoadResult;
    let cpuUs: number | null = null;
    const before = await upstreamCount(upstream);
    // As many as measured by default: 800 before 8,000 left part of the JIT's compiling in the measured
    // run (the V8 helper threads' and the main thread's), which a build with more code on the path pays more of.
    const warmupCount = Math.max(connections * 4, rate ?? 0, o.warmup ?? o.requests);
    const measuredCount = rate !== null ? Math.min(o.requests, rate * 5) : o.requests;
    // Distinct keys: every request of the run is new to the desk (the warm-up's too).
    const keyed = o.distinctKeys ? distinctPays(warmupCount + measuredCount, tag) : null;
    const warmupLoad: SignedCallback | SignedCallback[] = keyed ? keyed.slice(0, warmupCount) : payload;
    const measuredLoad: SignedCallback | SignedCallback[] = keyed ? keyed.slice(warmupCount) : payload;
    const drive = (payloads: SignedCallback | SignedCallback[], count: number, atLastAnswer?: () => void): Promise<LoadResult> =>
      rate === null
        ? load(running.url, payloads, connections, count, o.maxSeconds, atLastAnswer)
        : pacedLoad(running.url, Array.isArray(payloads) ? payloads : [payloads], connections, count, rate, o.maxSeconds);
    try {
      warmup = await drive(warmupLoad, warmupCount);
      const cpuBefore = processCpuMs(running.child.pid);
      // Read at the last answer: the closed-loop generator returns about half a second later.
      let cpuAtLastAnswer: number | null = null;
      measured = await drive(measuredLoad, measuredCount, () => (cpuAtLastAnswer = processCpuMs(running.child.pid)));
      const cpuAfter = cpuAtLastAnswer ?? processCpuMs(running.child.pid);
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
      // With distinct keys each row carries its own deposit: the desk read every body's key fields.
      const keysOk = !o.distinctKeys || counts.deposits === counts.inbound;
      recorded = rowsOk && keysOk && counts.answered === counts.inbound && (!forwards || served === counts.inbound);
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
    const upstream = await upstreamServer.url;
    // Rounds go around every proxy in turn, so a burst of load from elsewhere on the machine hits all alike.
    const record = (key: string, run: ProxyRun): void => void runs.set(key, [...(runs.get(key) ?? []), run]);
    for (let round = 1; round <= o.rounds; round++) {
      // The two builds swap places every round, so neither always runs first (a warmer machine, a cooler one).
      const order = o.baseline && round % 2 === 0 ? swap(targets, 'desk-forward', 'desk-forward-baseline') : targets;
      for (const connections of o.connections) {
        for (const target of order) record(`${target}@${connections}`, await measureOnce(target, connections, round, upstream, null));
      }
      // Below saturation: what the desk adds to each request when it is not queueing behind others.
      for (const target of rateTargets) record(`${target}@rate`, await measureOnce(target, rateConnections, round, upstream, o.rate));
    }
  } finally {
    await upstreamServer.child.stop();
    if (o.pin) pinTo(process.pid, `0-${availableParallelism() - 1}`);
  }
  const rows = summarize(runs, o.connections, targets, (target, connections) => `${target}@${connections}`);
  const fixedRows = summarize(runs, [rateConnections], rateTargets, (target) => `${target}@rate`);
  return {
    desk: desk.label,
    distinctKeys: o.distinctKeys,
    mitmdump: o.noMitm ? 'skipped' : (mitm ?? 'not installed'),
    requests: o.requests,
    rounds: o.rounds,
    connections: o.connections,
    rows,
    fixedRate: { rate: o.rate, connections: rateConnections, rows: fixedRows },
    allRecorded: [...rows, ...fixedRows].every((r) => r.recorded !== false),
    vsBaseline: o.baseline ? { dir: o.baseline, connections: o.connections.map((c) => versusBaseline(rows, c)) } : null,
  };
}

function swap<T>(xs: readonly T[], a: T, b: T): T[] {
  return xs.map((x) => (x === a ? b : x === b ? a : x));
}

/** Forward mode's req/s over the baseline build's at one connection count. */
export interface BaselineRatios {
  connections: number;
  /** Round by round (the same minutes of the machine), in alternating order. */
  rounds: number[];
  median: number | null;
  /** The geometric mean of the rounds and its 95% interval. */
  interval: ReturnType<typeof ratioInterval>;
}

/** Forward mode's req/s over the baseline's, round by round, the median and the geometric mean with its interval. */
function versusBaseline(rows: readonly ProxyRow[], connections: number): BaselineRatios {
  const mine = rows.find((r) => r.target === 'desk-forward' && r.connections === connections)?.runs ?? [];
  const theirs = rows.find((r) => r.target === 'desk-forward-baseline' && r.connections === connections)?.runs ?? [];
  const rounds = mine.flatMap((run) => {
    const other = theirs.find((t) => t.round === run.round);
    const v = other ? ratio(run.load.rps, other.load.rps) : null;
    return v === null ? [] : [v];
  });
  return { connections, rounds, median: rounds.length > 0 ? median(rounds) : null, interval: ratioInterval(rounds) };
}

/** The median row of each proxy at each connection count, and its ratios to the floor and mitmdump within each round. */
function summarize(
  runs: ReadonlyMap<string, ProxyRun[]>,
  connectionCounts: readonly number[],
  targets: readonly ProxyTarget[],
  keyOf: (target: ProxyTarget, connections: number) => string,
): ProxyRow[] {
  const rows: ProxyRow[] = connectionCounts.flatMap((connections) =>
    targets.map((target) => {
      const mine = runs.get(keyOf(target, connections)) ?? [];
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
    if (row.target === 'desk-forward-10') {
      const one = rows.find((r) => r.target === 'desk-forward' && r.connections === row.connections);
      row.vsOneProfile = perRound(row, one, (a, b) => ratio(a.load.rps, b.load.rps));
    }
  }
  return rows;
}

function fmtInterval(i: BaselineRatios['interval']): string {
  if (i === null) return '';
  const bounds = i.low === null || i.high === null ? '' : ` (95% interval ${fmtRatio(i.low)} to ${fmtRatio(i.high)})`;
  return `; geometric mean ${fmtRatio(i.mean)}${bounds}`;
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
    addedP50(row),
    cpuOf(row),
    fmtRatio(row.cpuVsFloor),
    String(row.errors),
    row.runs.map((x) => fmtInt(x.load.rps)).join(' / '),
  ]);
  const fixed = r.fixedRate.rows.map((row) => [
    row.label,
    fmtInt(row.rps),
    fmtMs(row.p50),
    fmtMs(row.p99),
    addedP50(row),
    cpuOf(row),
    fmtRatio(row.cpuVsFloor),
    String(row.errors),
  ]);
  return [
    `${r.rounds > 1 ? `median of ${r.rounds} rounds (ratios and added p50: taken within each round, then the median); ` : ''}${fmtInt(r.requests)} requests a run after a warm-up; ${r.distinctKeys ? 'a user and a deposit of its own in every request' : 'the same callback every time'}`,
    table(
      ['proxy', 'conns', 'req/s', 'p50', 'p99', 'vs floor', 'vs mitmdump', 'p50 over floor', 'CPU/req', 'CPU vs floor', 'errors', 'req/s each round'],
      body,
    ),
    '',
    `open loop at ${fmtInt(r.fixedRate.rate)} req/s over ${r.fixedRate.connections} connections (below every proxy's saturation but mitmdump's): the latency a proxy adds when requests do not queue`,
    table(['proxy', 'req/s', 'p50', 'p99', 'p50 over floor', 'CPU/req', 'CPU vs floor', 'errors'], fixed),
    '',
    ...(r.vsBaseline
      ? [
          `forward mode vs the --baseline build (${r.vsBaseline.dir}), req/s ratio within each round (alternating order):`,
          ...r.vsBaseline.connections.map(
            (c) =>
              `  c${c.connections}: ${c.rounds.map((x, i) => `r${i + 1} ${fmtRatio(x)}`).join(', ')}; median ${fmtRatio(c.median)}${fmtInterval(c.interval)}`,
          ),
          '',
        ]
      : []),
    ...r.rows
      .filter((row) => row.vsOneProfile !== undefined)
      .map(
        (row) =>
          `${MANY_PROFILES} profiles on one proxy vs one profile, forward mode, ${row.connections} conns: ${fmtRatio(row.vsOneProfile ?? null)} req/s (within each round, then the median)`,
      ),
    '',
    ...rowChecks(r.rows, r.rounds, ''),
    ...rowChecks(r.fixedRate.rows, r.rounds, ` at ${r.fixedRate.rate}/s`),
  ].join('\n');
}

function addedP50(row: ProxyRow): string {
  return row.addedP50Ms === null || row.target === 'floor' ? '-' : `${row.addedP50Ms >= 0 ? '+' : ''}${fmtMs(row.addedP50Ms)}`;
}

function cpuOf(row: ProxyRow): string {
  return row.cpuUs === null ? '-' : `${row.cpuUs.toFixed(1)} µs`;
}

/** One line per desk run: what the database holds against what was answered. */
function rowChecks(rows: readonly ProxyRow[], rounds: number, suffix: string): string[] {
  return rows.flatMap((row) =>
    row.runs
      .filter((run) => run.rows !== null)
      .map((run) => {
        const answered = run.warmup.completed + run.load.completed;
        const upstream = run.upstreamServed === null ? '' : `, upstream received ${run.upstreamServed}`;
        const round = rounds > 1 ? ` r${run.round}` : '';
        const c = run.rows!;
        return `rows check ${row.target} c${row.connections}${suffix}${round}: requests=${answered} rows=${c.inbound} answered=${c.answered} valid=${c.valid} deposits=${c.deposits}${upstream}: ${run.recorded ? 'ok' : 'MISMATCH'}`;
      }),
  );
}
