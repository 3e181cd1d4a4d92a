// Benchmark: the team store. The proxy's forward throughput with its captures in the data directory's
// SQLite, against the same with them in PostgreSQL (`serve --database URL`, a freshly migrated database
// per run), and two `serve` processes on one PostgreSQL database with the load split between them (half
// the connections and half the requests each, at the same time). The same signed pay callback as
// bench/proxy.ts, the same stand-in upstream; each proxy a fresh process per run. Also one proxy on a
// database whose synchronous_commit is off, as a team may choose for its proxies (docs/TEAM.md): what the
// flush of every commit costs. The order of the targets turns by one place every round (A B C D, B C D A,
// ...), and the ratios are taken within each round, then their median. The PostgreSQL server is durable
// (bench/lib/postgres.ts: fsync and synchronous_commit on); what SQLite's commits promise is the desk's
// setting (WAL, synchronous=NORMAL), printed beside it. After each run the log is counted: every answered
// request is an inbound row with its answer, and the upstream received exactly as many.
import { closeSync, fdatasyncSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { BenchArgs } from './lib/args';
import { baselineCommand, countRows, deskCommand, migrateWith, startServe, type RowCounts, type RunningServe } from './lib/desk-cli';
import { BENCH_SECRET } from './lib/exchange-rows';
import { load, type LoadResult } from './lib/load';
import { signedPay } from './lib/payload';
import { countPgRows, durable, exchangeUpdates, startBenchPostgres, type BenchPostgres, type PgSettings, type WalFlushes } from './lib/postgres';
import { machineCpu, machineShares, processCpuMs } from './lib/proc-cpu';
import { fmtInt, fmtMs, fmtRatio, percentile, ratio } from './lib/stats';
import { table } from './lib/table';
import { startUpstream } from './lib/upstream';

export type TeamTarget = 'sqlite' | 'postgres' | 'postgres-unflushed' | 'postgres-x2' | 'postgres-baseline';
const TARGETS: readonly TeamTarget[] = ['sqlite', 'postgres', 'postgres-unflushed', 'postgres-x2'];
/** With --baseline: one proxy on PostgreSQL with this build and with the other, beside SQLite. */
const BASELINE_TARGETS: readonly TeamTarget[] = ['sqlite', 'postgres', 'postgres-baseline'];

const LABELS: Record<TeamTarget, string> = {
  sqlite: 'one proxy, SQLite (data directory)',
  postgres: 'one proxy, PostgreSQL',
  'postgres-unflushed': 'one proxy, PostgreSQL, commits not flushed',
  'postgres-x2': 'two proxies, one PostgreSQL',
  'postgres-baseline': 'one proxy, PostgreSQL, --baseline build',
};

/** The issue's targets: PostgreSQL at least this share of SQLite's forward throughput; two proxies this many times one. */
export const PG_VS_SQLITE_TARGET = 0.8;
export const TWO_VS_ONE_TARGET = 1.5;
/**
 * Below this many cores a second proxy cannot add half again: at saturation each serve process, PostgreSQL,
 * the load generator and the upstream each want about a core, so two proxies need about six to run apart.
 */
const CORES_FOR_TWO = 6;

export interface TeamRun {
  round: number;
  /** One load per proxy (two for postgres-x2, run at the same time). */
  warmup: LoadResult[];
  load: LoadResult[];
  /** 2xx answers a second over the measured load, all proxies together (from the first request to the last answer). */
  rps: number;
  /** One proxy: its p50 and p99. Two: the slower proxy's of each. */
  p50: number;
  p99: number;
  rows: RowCounts;
  upstreamServed: number;
  /** Inbound rows == requests answered (warm-up included), all with their answer, and the upstream got them all. */
  recorded: boolean;
  /** CPU µs per request of the measured load: the serve processes together, and PostgreSQL's processes (embedded server only). */
  serveCpuUs: number | null;
  pgCpuUs: number | null;
  /** The machine's CPU (all cores) busy, and waiting on I/O, during the measured load (share of 1). */
  machineBusy: number | null;
  machineIowait: number | null;
  /** PostgreSQL runs: requests (warm-up included) per WAL flush of the server, and the flushes' mean time. */
  requestsPerWalFlush: number | null;
  walFlushMs: number | null;
}

/** The run's measures that a row reports as their median over its runs. */
type MedianOfRuns = Pick<TeamRun, 'p50' | 'p99' | 'serveCpuUs' | 'pgCpuUs' | 'machineBusy' | 'machineIowait' | 'requestsPerWalFlush' | 'walFlushMs'>;

export interface TeamRow extends MedianOfRuns {
  target: TeamTarget;
  label: string;
  connections: number;
  runs: TeamRun[];
  rps: number;
  errors: number;
  recorded: boolean;
  /** Within each round, then the median: this row's req/s over the SQLite row's, and (postgres-x2) over one PostgreSQL proxy's. */
  vsSqlite: number | null;
  vsOneProxy: number | null;
  /** The same ratios, round by round. */
  vsSqliteRounds: number[];
  vsOneProxyRounds: number[];
  /** CPU per request of serve and PostgreSQL's processes together over SQLite's serve, within each round, then the median. */
  cpuVsSqlite: number | null;
  /** One PostgreSQL proxy of this build over the --baseline build's, round by round. */
  vsBaselineRounds: number[];
}

export interface TeamStoreResult {
  desk: string;
  postgres: string;
  settings: PgSettings;
  durable: boolean;
  cores: number;
  /** fdatasync of an 8 KiB write in the scratch directory (the file system both stores write to here). */
  diskSync: { samples: number; p50: number; p99: number };
  requests: number;
  rounds: number;
  connections: number[];
  rows: TeamRow[];
  allRecorded: boolean;
  /** The --baseline build's CLI, when one was measured. */
  baseline: string | null;
}

export interface TeamStoreOptions extends BenchArgs {
  scratch: string;
  log(line: string): void;
}

async function upstreamCount(upstream: string): Promise<number> {
  const res = await fetch(new URL('/__bench/count', upstream));
  return ((await res.json()) as { served: number }).served;
}

/** What one durable commit costs the disk at least: write 8 KiB, fdatasync; repeated for at most `ms`. */
function probeDiskSync(dir: string, ms: number): TeamStoreResult['diskSync'] {
  const file = join(dir, 'fdatasync-probe');
  const fd = openSync(file, 'w');
  const page = Buffer.alloc(8192, 1);
  const times: number[] = [];
  try {
    const deadline = performance.now() + ms;
    for (let i = 0; i < 500 && performance.now() < deadline; i++) {
      const t0 = performance.now();
      writeSync(fd, page, 0, page.length, (i % 16) * page.length);
      fdatasyncSync(fd);
      times.push(performance.now() - t0);
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  return { samples: times.length, p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** `total` shared out among `n` as evenly as whole numbers go. */
function share(total: number, n: number, i: number): number {
  return Math.floor(total / n) + (i < total % n ? 1 : 0);
}

function rotate<T>(xs: readonly T[], by: number): T[] {
  const k = ((by % xs.length) + xs.length) % xs.length;
  return [...xs.slice(k), ...xs.slice(0, k)];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runTeamStoreBench(o: TeamStoreOptions): Promise<TeamStoreResult> {
  for (const c of o.connections) if (c < 2) throw new Error(`team-store splits the connections between two proxies: --connections ${c} is too few`);
  const desk = await deskCommand(o.fromSource);
  const baseline = o.baseline ? baselineCommand(o.baseline) : null;
  const targets = baseline ? BASELINE_TARGETS : TARGETS;
  const cores = cpus().length;
  o.log(`desk: ${desk.label}`);
  if (baseline) o.log(`baseline: ${baseline.label}, one proxy on PostgreSQL, in the rounds' turning order beside this build's`);
  const payload = signedPay();
  o.log(
    `load: POST ${payload.path}, ${payload.body.length}-byte signed pay body, the same callback every time, forward mode; ` +
      `${fmtInt(o.requests)} requests a run (+ warm-up), at most ${o.maxSeconds} s a run; two proxies: half the connections and half the requests each, at once`,
  );
  const diskSync = probeDiskSync(o.scratch, o.quick ? 300 : 2_000);
  o.log(`disk: fdatasync of an 8 KiB write in ${o.scratch}: p50 ${fmtMs(diskSync.p50)}, p99 ${fmtMs(diskSync.p99)} (${diskSync.samples} samples)`);
  const pgServer: BenchPostgres = await startBenchPostgres();
  const s = pgServer.settings;
  const isDurable = durable(s);
  o.log(`PostgreSQL: ${pgServer.label}`);
  o.log(
    `  fsync=${s.fsync}, synchronous_commit=${s.synchronousCommit} (${s.synchronousCommitSource}), full_page_writes=${s.fullPageWrites}, wal_sync_method=${s.walSyncMethod}: ` +
      (isDurable
        ? 'durable: a commit is acknowledged only once its WAL is flushed to the disk (one flush per commit group of the desk)'
        : 'NOT durable: commits are acknowledged before they reach the disk; the comparison with SQLite is not like for like'),
  );
  if (targets.includes('postgres-unflushed')) {
    o.log(
      "  'commits not flushed': a database whose own synchronous_commit is off, which the proxy's writer keeps: committed and visible at once, on the disk within 3 x wal_writer_delay",
    );
  }
  o.log(
    "SQLite: the desk's own setting, WAL with synchronous=NORMAL: a commit survives the process being killed; it reaches the disk at the next checkpoint (an OS crash can lose the last commits)",
  );
  o.log(`machine: ${cores} cores shared by the load generator (this process), the stand-in upstream, the serve process(es) and PostgreSQL`);
  const upstreamServer = startUpstream();
  const runs = new Map<string, TeamRun[]>();
  const measureOnce = async (target: TeamTarget, connections: number, round: number, upstream: string): Promise<TeamRun> => {
    const tag = `team-${target}-c${connections}${o.rounds > 1 ? `-r${round}` : ''}`;
    const n = target === 'postgres-x2' ? 2 : 1;
    const homes = Array.from({ length: n }, (_, i) => join(o.scratch, n > 1 ? `${tag}-${i + 1}` : tag));
    for (const h of homes) mkdirSync(h, { recursive: true });
    // The baseline's database at the baseline's own schema, by its own migrate.
    const migrate = target === 'postgres-baseline' && baseline ? (u: string) => migrateWith(baseline, homes[0]!, u) : undefined;
    const url = target === 'sqlite' ? null : await pgServer.newDatabase(migrate);
    if (url && target === 'postgres-unflushed') await pgServer.commitWithoutFlush(url);
    const started = await Promise.allSettled(
      homes.map((home, i) =>
        startServe(target === 'postgres-baseline' && baseline ? baseline : desk, {
          home,
          upstream,
          secret: BENCH_SECRET,
          ui: false,
          database: url,
          cpuProfDir: o.cpuProf ? join(o.cpuProf, n > 1 ? `${tag}-${i + 1}` : tag) : null,
        }),
      ),
    );
    const serves = started.flatMap((x) => (x.status === 'fulfilled' ? [x.value] : []));
    const stopAll = async (): Promise<void> => {
      const codes = await Promise.all(serves.map((sv) => sv.child.stop()));
      codes.forEach((code, i) => {
        if (code !== '0' && code !== 'SIGTERM') o.log(`  ${tag}: serve ${i + 1} exited with ${code}`);
      });
    };
    const failed = started.find((x): x is PromiseRejectedResult => x.status === 'rejected');
    if (failed) {
      await stopAll();
      if (url) await pgServer.dropDatabase(url);
      throw failed.reason;
    }
    const warmupCount = Math.max(connections * 4, Math.floor(o.requests / 10));
    const drive = (count: number): Promise<LoadResult[]> =>
      Promise.all(serves.map((sv: RunningServe, i) => load(sv.proxyUrl, payload, share(connections, n, i), share(count, n, i), o.maxSeconds)));
    let warmup: LoadResult[];
    let measured: LoadResult[];
    let serveCpuUs: number | null = null;
    let pgCpuUs: number | null = null;
    let shares: { busy: number; iowait: number } | null = null;
    const walBefore: WalFlushes | null = url ? await pgServer.walFlushes() : null;
    const before = await upstreamCount(upstream);
    try {
      warmup = await drive(warmupCount);
      const cpuBefore = serves.map((sv) => processCpuMs(sv.child.pid));
      const pgBefore = url ? pgServer.serverCpuMs() : null;
      const machineBefore = machineCpu();
      measured = await drive(o.requests);
      const machineAfter = machineCpu();
      const cpuAfter = serves.map((sv) => processCpuMs(sv.child.pid));
      const pgAfter = url ? pgServer.serverCpuMs() : null;
      const completed = measured.reduce((a, r) => a + r.completed, 0);
      if (completed > 0 && cpuBefore.every((x) => x !== null) && cpuAfter.every((x) => x !== null)) {
        serveCpuUs = (cpuAfter.reduce((a, x, i) => a + (x! - cpuBefore[i]!), 0) * 1000) / completed;
      }
      if (completed > 0 && pgBefore !== null && pgAfter !== null) pgCpuUs = ((pgAfter - pgBefore) * 1000) / completed;
      shares = machineShares(machineBefore, machineAfter);
    } finally {
      await stopAll();
    }
    const served = (await upstreamCount(upstream)) - before;
    let rows: RowCounts;
    let requestsPerWalFlush: number | null = null;
    let walFlushMs: number | null = null;
    let hotShare: number | null = null;
    let walPerRequest: { bytes: number; fullPages: number } | null = null;
    const answered = [...warmup, ...measured].reduce((a, r) => a + r.completed, 0);
    const sent = [...warmup, ...measured].reduce((a, r) => a + r.sent, 0);
    if (url) {
      try {
        // The backends' statistics reach the shared view when they exit (serve has stopped): give them a moment.
        await sleep(300);
        const walAfter = await pgServer.walFlushes();
        if (walBefore && walAfter && walAfter.syncs > walBefore.syncs) {
          requestsPerWalFlush = answered / (walAfter.syncs - walBefore.syncs);
          // No time at all: the server does not time its flushes (track_wal_io_timing off), not free flushes.
          const ms = walBefore.syncMs !== null && walAfter.syncMs !== null ? walAfter.syncMs - walBefore.syncMs : 0;
          if (ms > 0) walFlushMs = ms / (walAfter.syncs - walBefore.syncs);
        }
        if (walBefore?.bytes != null && walAfter?.bytes != null && walBefore.fullPages !== null && walAfter.fullPages !== null && answered > 0) {
          walPerRequest = { bytes: (walAfter.bytes - walBefore.bytes) / answered, fullPages: (walAfter.fullPages - walBefore.fullPages) / answered };
        }
        rows = await countPgRows(url);
        hotShare = await exchangeUpdates(url).then((u) => (u.updates > 0 ? u.hot / u.updates : null));
      } finally {
        await pgServer.dropDatabase(url);
      }
    } else {
      rows = countRows(homes[0]!);
    }
    const cutShort = [...warmup, ...measured].some((r) => r.cutShort);
    // Cut short by the time bound: requests in flight may or may not have arrived.
    const rowsOk = cutShort ? rows.inbound >= answered && rows.inbound <= sent : rows.inbound === answered;
    const recorded = rowsOk && rows.answered === rows.inbound && served === rows.inbound;
    const ok2xx = measured.reduce((a, r) => a + r.rps * r.seconds, 0);
    const rps = ok2xx / Math.max(...measured.map((r) => r.seconds));
    const run: TeamRun = {
      round,
      warmup,
      load: measured,
      rps,
      p50: Math.max(...measured.map((r) => r.p50)),
      p99: Math.max(...measured.map((r) => r.p99)),
      rows,
      upstreamServed: served,
      recorded,
      serveCpuUs,
      pgCpuUs,
      machineBusy: shares?.busy ?? null,
      machineIowait: shares?.iowait ?? null,
      requestsPerWalFlush,
      walFlushMs,
    };
    o.log(
      `  ${tag}: ${fmtInt(rps)} req/s` +
        (n > 1 ? ` (${measured.map((r) => fmtInt(r.rps)).join(' + ')})` : '') +
        `, p50 ${fmtMs(run.p50)}, p99 ${fmtMs(run.p99)}` +
        (serveCpuUs !== null ? `, serve ${serveCpuUs.toFixed(0)} µs CPU/req` : '') +
        (pgCpuUs !== null ? `, PostgreSQL ${pgCpuUs.toFixed(0)} µs CPU/req` : '') +
        (shares ? `, machine ${pct(shares.busy)} busy, ${pct(shares.iowait)} iowait` : '') +
        (requestsPerWalFlush !== null ? `, ${requestsPerWalFlush.toFixed(1)} req/WAL flush` : '') +
        (walFlushMs !== null ? ` (${fmtMs(walFlushMs)} each)` : '') +
        (walPerRequest !== null ? `, WAL ${fmtInt(walPerRequest.bytes)} B/req (${walPerRequest.fullPages.toFixed(2)} full pages)` : '') +
        (hotShare !== null ? `, ${pct(hotShare)} of answers' updates HOT` : '') +
        `; rows ${fmtInt(rows.inbound)} of ${fmtInt(answered)} answered, upstream got ${fmtInt(served)}`,
    );
    return run;
  };
  try {
    const upstream = await upstreamServer.url;
    const record = (key: string, run: TeamRun): void => void runs.set(key, [...(runs.get(key) ?? []), run]);
    for (let round = 1; round <= o.rounds; round++) {
      // The order turns by one every round: no target always runs first, or last.
      const order = rotate(targets, round - 1);
      for (const connections of o.connections) {
        for (const target of order) record(`${target}@${connections}`, await measureOnce(target, connections, round, upstream));
      }
    }
  } finally {
    await upstreamServer.child.stop();
    await pgServer.stop();
  }
  const rows = summarize(runs, o.connections, targets);
  return {
    desk: desk.label,
    postgres: pgServer.label,
    settings: s,
    durable: isDurable,
    cores,
    diskSync,
    requests: o.requests,
    rounds: o.rounds,
    connections: o.connections,
    rows,
    allRecorded: rows.every((r) => r.recorded),
    baseline: baseline?.label ?? null,
  };
}

function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

function medianOrNull(xs: ReadonlyArray<number | null>): number | null {
  const ok = xs.filter((x): x is number => x !== null);
  return ok.length > 0 && ok.length === xs.length ? median(ok) : null;
}

function summarize(runs: ReadonlyMap<string, TeamRun[]>, connectionCounts: readonly number[], targets: readonly TeamTarget[]): TeamRow[] {
  const rows: TeamRow[] = connectionCounts.flatMap((connections) =>
    targets.map((target) => {
      const mine = runs.get(`${target}@${connections}`) ?? [];
      return {
        target,
        label: LABELS[target],
        connections,
        runs: mine,
        rps: median(mine.map((r) => r.rps)),
        p50: median(mine.map((r) => r.p50)),
        p99: median(mine.map((r) => r.p99)),
        errors: mine.reduce((a, r) => a + [...r.warmup, ...r.load].reduce((b, l) => b + l.errors + l.timeouts + l.non2xx, 0), 0),
        recorded: mine.length > 0 && mine.every((r) => r.recorded),
        vsSqlite: null,
        vsOneProxy: null,
        vsSqliteRounds: [],
        vsOneProxyRounds: [],
        cpuVsSqlite: null,
        vsBaselineRounds: [],
        serveCpuUs: medianOrNull(mine.map((r) => r.serveCpuUs)),
        pgCpuUs: medianOrNull(mine.map((r) => r.pgCpuUs)),
        machineBusy: medianOrNull(mine.map((r) => r.machineBusy)),
        machineIowait: medianOrNull(mine.map((r) => r.machineIowait)),
        requestsPerWalFlush: medianOrNull(mine.map((r) => r.requestsPerWalFlush)),
        walFlushMs: medianOrNull(mine.map((r) => r.walFlushMs)),
      };
    }),
  );
  // Ratios within each round (the same minutes of the machine), then their median.
  const perRound = (row: TeamRow, peer: TeamRow | undefined, f: (mine: TeamRun, theirs: TeamRun) => number | null): number[] =>
    !peer
      ? []
      : row.runs.flatMap((run) => {
          const other = peer.runs.find((p) => p.round === run.round);
          const v = other ? f(run, other) : null;
          return v === null ? [] : [v];
        });
  const medianOf = (xs: readonly number[]): number | null => (xs.length > 0 ? median(xs) : null);
  const rps = (a: TeamRun, b: TeamRun): number | null => ratio(a.rps, b.rps);
  const storeCpu = (a: TeamRun, b: TeamRun): number | null =>
    a.serveCpuUs !== null && a.pgCpuUs !== null ? ratio(a.serveCpuUs + a.pgCpuUs, b.serveCpuUs) : null;
  for (const row of rows) {
    const find = (t: TeamTarget): TeamRow | undefined => rows.find((r) => r.target === t && r.connections === row.connections);
    row.vsSqliteRounds = perRound(row, find('sqlite'), rps);
    row.vsSqlite = medianOf(row.vsSqliteRounds);
    if (row.target !== 'sqlite') row.cpuVsSqlite = medianOf(perRound(row, find('sqlite'), storeCpu));
    if (row.target === 'postgres') row.vsBaselineRounds = perRound(row, find('postgres-baseline'), rps);
    if (row.target === 'postgres-x2') {
      row.vsOneProxyRounds = perRound(row, find('postgres'), rps);
      row.vsOneProxy = medianOf(row.vsOneProxyRounds);
    }
  }
  return rows;
}

function pct(x: number | null): string {
  return x === null ? '-' : `${Math.round(x * 100)}%`;
}

function us(x: number | null): string {
  return x === null ? '-' : `${x.toFixed(0)} µs`;
}

export function formatTeamResult(r: TeamStoreResult): string {
  const body = r.rows.map((row) => [
    row.label,
    String(row.connections),
    fmtInt(row.rps),
    fmtMs(row.p50),
    fmtMs(row.p99),
    fmtRatio(row.vsSqlite),
    fmtRatio(row.vsOneProxy),
    us(row.serveCpuUs),
    us(row.pgCpuUs),
    row.machineBusy === null ? '-' : `${pct(row.machineBusy)} / ${pct(row.machineIowait)}`,
    row.requestsPerWalFlush === null ? '-' : row.requestsPerWalFlush.toFixed(1),
    fmtMs(row.walFlushMs),
    String(row.errors),
    row.runs.map((x) => fmtInt(x.rps)).join(' / '),
  ]);
  const lines: string[] = [
    `${r.rounds > 1 ? `median of ${r.rounds} rounds (ratios taken within each round, then the median); ` : ''}${fmtInt(r.requests)} requests a run after a warm-up; ` +
      `PostgreSQL ${r.settings.version}, ${r.durable ? 'durable commits (fsync=on, synchronous_commit=on)' : `NOT durable (fsync=${r.settings.fsync}, synchronous_commit=${r.settings.synchronousCommit})`}; ` +
      `SQLite WAL synchronous=NORMAL`,
    table(
      [
        'store',
        'conns',
        'req/s',
        'p50',
        'p99',
        'vs SQLite',
        'vs one proxy',
        'serve CPU/req',
        'PG CPU/req',
        'machine busy / iowait',
        'req/WAL flush',
        'WAL flush',
        'errors',
        'req/s each round',
      ],
      body,
    ),
    'two proxies: req/s of both together (first request to last answer); p50 and p99 of the slower proxy. serve CPU/req: all serve processes together.',
    '',
  ];
  for (const c of r.connections) {
    const pg = r.rows.find((x) => x.target === 'postgres' && x.connections === c);
    const two = r.rows.find((x) => x.target === 'postgres-x2' && x.connections === c);
    const v = pg?.vsSqlite ?? null;
    const rounds = (xs: readonly number[]): string => (xs.length > 1 ? ` (round by round: ${xs.map((x) => fmtRatio(x)).join(', ')})` : '');
    lines.push(
      `c${c}: PostgreSQL / SQLite forward throughput ${fmtRatio(v)}${rounds(pg?.vsSqliteRounds ?? [])} (target at least ${PG_VS_SQLITE_TARGET.toFixed(1)}x): ` +
        (v === null ? 'not measured' : v >= PG_VS_SQLITE_TARGET ? 'met' : 'NOT met'),
    );
    const unflushed = r.rows.find((x) => x.target === 'postgres-unflushed' && x.connections === c);
    if (unflushed) {
      lines.push(
        `c${c}: PostgreSQL with commits not flushed / SQLite ${fmtRatio(unflushed.vsSqlite)}${rounds(unflushed.vsSqliteRounds)}: ` +
          "what a team's synchronous_commit = off for its proxies gives",
      );
    }
    if (pg?.cpuVsSqlite != null) {
      lines.push(
        `c${c}: CPU per request of serve and PostgreSQL together over SQLite's serve: ${fmtRatio(pg.cpuVsSqlite)} (one proxy), ${fmtRatio(two?.cpuVsSqlite ?? null)} (two proxies)`,
      );
    }
    if (r.baseline && pg) {
      const b = pg.vsBaselineRounds;
      lines.push(
        `c${c}: PostgreSQL, this build / the --baseline build ${fmtRatio(b.length > 0 ? percentile(b, 50) : null)}${rounds(b)}; ` +
          `serve CPU/req ${us(pg.serveCpuUs)} against ${us(r.rows.find((x) => x.target === 'postgres-baseline' && x.connections === c)?.serveCpuUs ?? null)}, ` +
          `PostgreSQL CPU/req ${us(pg.pgCpuUs)} against ${us(r.rows.find((x) => x.target === 'postgres-baseline' && x.connections === c)?.pgCpuUs ?? null)}`,
      );
      continue;
    }
    const w = two?.vsOneProxy ?? null;
    const busy = `machine busy during the one-proxy run ${pct(pg?.machineBusy ?? null)}, during the two-proxy run ${pct(two?.machineBusy ?? null)}`;
    lines.push(
      `c${c}: two proxies / one proxy on PostgreSQL ${fmtRatio(w)}${rounds(two?.vsOneProxyRounds ?? [])} (target at least ${TWO_VS_ONE_TARGET.toFixed(1)}x where cores allow): ` +
        (w === null
          ? 'not measured'
          : w >= TWO_VS_ONE_TARGET
            ? `met (${busy})`
            : r.cores < CORES_FOR_TWO
              ? `not met here, and the cores do not allow it: ${r.cores} cores carry the load generator, the stand-in upstream, both serve processes and PostgreSQL (${busy})`
              : `NOT met (${r.cores} cores; ${busy})`),
    );
  }
  lines.push(
    `disk: fdatasync of an 8 KiB write p50 ${fmtMs(r.diskSync.p50)}, p99 ${fmtMs(r.diskSync.p99)}: a durable PostgreSQL commit waits for one; SQLite's (synchronous=NORMAL) does not`,
    '',
  );
  for (const row of r.rows) {
    for (const run of row.runs) {
      const answered = [...run.warmup, ...run.load].reduce((a, l) => a + l.completed, 0);
      const c = run.rows;
      lines.push(
        `rows check ${row.target} c${row.connections}${r.rounds > 1 ? ` r${run.round}` : ''}: requests=${answered} rows=${c.inbound} answered=${c.answered} valid=${c.valid} deposits=${c.deposits}, upstream received ${run.upstreamServed}: ${run.recorded ? 'ok' : 'MISMATCH'}`,
      );
    }
  }
  return lines.join('\n');
}
