// The benchmarks' smoke run: each benchmark of bench/run.ts in --quick mode, in a child process, as
// `npm run bench -- --quick` runs it. Asserts the shape of what they report and their correctness
// checks (every request a row in the database, the UI showing the rows), never a timing: the numbers
// of a two-core shared machine mean nothing here (BENCHMARKS.md has the real runs).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp';
import { QUICK } from '../../bench/lib/args';
import type { MemoryBenchResult } from '../../bench/memory';
import type { NdjsonBenchResult } from '../../bench/ndjson';
import type { RedeliverBenchResult } from '../../bench/redeliver';
import type { TailBenchResult } from '../../bench/tail';
import type { ProxyBenchResult } from '../../bench/proxy';
import type { PruneBenchResult } from '../../bench/prune';
import type { StoreBenchResult } from '../../bench/store';
import type { UiBenchResult } from '../../bench/ui';
import type { WriteBenchResult } from '../../bench/writes';
import type { TeamStoreResult } from '../../bench/team-store';
import type { TeamScaleResult } from '../../bench/team-scale';
import type { OutageResult } from '../../bench/team-outage';
import type { SearchBesideResult } from '../../bench/search-beside';
import type { ExportCostResult } from '../../bench/export-cost';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Outcome {
  name: string;
  ok: boolean;
  result: Record<string, unknown> & { [key: string]: unknown };
  error?: string;
}

interface Run {
  code: number | null;
  stdout: string;
  report: { quick: boolean; benchmarks: Outcome[] };
}

/** Runs `bench/run.ts --quick --only NAME` and reads its JSON report. Bounded: killed after limitMs. */
function bench(name: string, extra: string[] = [], limitMs = 150_000): Promise<Run> {
  const json = join(tempDir('wager-desk-bench-smoke-'), 'report.json');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--only', name, '--json', json, ...extra], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (!existsSync(json)) return reject(new Error(`bench ${name} wrote no report (exit ${code}):\n${stdout.slice(-3000)}`));
      resolve({ code, stdout, report: JSON.parse(readFileSync(json, 'utf8')) as Run['report'] });
    });
  });
}

function only(run: Run, name: string): Outcome {
  expect(run.report.quick).toBe(true);
  expect(run.report.benchmarks.map((b) => b.name)).toEqual([name]);
  const outcome = run.report.benchmarks[0]!;
  expect(outcome.error, run.stdout.slice(-3000)).toBeUndefined();
  expect(outcome.ok, run.stdout.slice(-3000)).toBe(true);
  expect(run.code, run.stdout.slice(-3000)).toBe(0);
  expect(run.stdout).toContain('bench: all checks passed');
  return outcome;
}

/** The benchmark's result as bench/run.ts wrote it, typed as its module declares it. */
function resultOf<T>(run: Run, name: string): T {
  return only(run, name).result as T;
}

const positive = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x) && x > 0;

describe('bench smoke (--quick)', () => {
  it('proxy: every peer measured at each connection count, every desk request a row', async () => {
    const run = await bench('proxy', ['--connections', '8,32']);
    const r = resultOf<ProxyBenchResult>(run, 'proxy');
    const mitm = r.mitmdump !== 'not installed' && r.mitmdump !== 'skipped';
    const targets = ['floor', 'desk-forward', 'desk-forward-10', 'desk-sandbox', ...(mitm ? ['mitmdump'] : [])];
    expect(r.rows.map((x) => `${x.target}@${x.connections}`)).toEqual([8, 32].flatMap((c) => targets.map((t) => `${t}@${c}`)));
    expect(run.stdout).toContain(mitm ? `mitmdump: ${r.mitmdump}` : 'mitmdump: not installed');
    for (const row of r.rows) {
      expect(positive(row.rps) && positive(row.p50) && positive(row.p99)).toBe(true);
      expect(row.errors).toBe(0);
      expect(positive(row.vsFloor)).toBe(true);
      expect(row.runs.length).toBe(1);
      // CPU per request comes from /proc: a number wherever there is one, null only where there is none (a
      // smoke run is too short for more).
      expect(row.cpuUs === null ? !existsSync('/proc/self/stat') : row.cpuUs >= 0).toBe(true);
      const one = row.runs[0]!;
      const answered = one.warmup.completed + one.load.completed;
      if (row.target.startsWith('desk-')) {
        // The correctness check: every request answered is a row, with its response and a valid signature.
        expect(one.load.cutShort).toBe(false);
        // One callback repeated: one deposit in every row.
        expect(one.rows).toEqual({ inbound: answered, answered, valid: answered, deposits: 1 });
        expect(one.recorded).toBe(true);
        expect(row.recorded).toBe(true);
        expect(run.stdout).toContain(`rows check ${row.target} c${row.connections}: requests=${answered} rows=${answered}`);
      } else expect(one.rows).toBeNull();
      if (row.target !== 'desk-sandbox') expect(one.upstreamServed).toBe(answered);
    }
    expect(run.stdout).toMatch(/proxy\s+conns\s+req\/s\s+p50\s+p99\s+vs floor\s+vs mitmdump\s+p50 over floor\s+CPU\/req\s+CPU vs floor/);
    expect(run.stdout).toContain('the same callback every time');
    // The open-loop pass: each proxy but mitmdump at the fixed rate, the desk's rows checked the same way.
    const fixed = resultOf<ProxyBenchResult>(run, 'proxy').fixedRate;
    expect(fixed.rate).toBe(200);
    expect(fixed.connections).toBe(8);
    expect(fixed.rows.map((x) => x.target)).toEqual(['floor', 'desk-forward', 'desk-sandbox']);
    for (const row of fixed.rows) {
      expect(row.errors).toBe(0);
      expect(positive(row.p50) && positive(row.rps)).toBe(true);
      const one = row.runs[0]!;
      const answered = one.warmup.completed + one.load.completed;
      // The warm-up sends at least a second's at the rate (more than the measured requests), then the measured ones.
      expect(answered).toBe(Math.max(QUICK.rate, QUICK.requests) + QUICK.requests);
      if (row.target.startsWith('desk-')) {
        expect(one.rows).toEqual({ inbound: answered, answered, valid: answered, deposits: 1 });
        expect(run.stdout).toContain(`rows check ${row.target} c8 at 200/s: requests=${answered} rows=${answered}`);
      }
    }
    expect(run.stdout).toMatch(/open loop at 200 req\/s over 8 connections/);
  }, 200_000);

  it('proxy --distinct-keys: every request a deposit of its own, each one a row', async () => {
    // Pinned: the proxies on one CPU, the generator on the other, the same checks. Without taskset
    // (util-linux) the benchmark fails, saying so.
    const run = await bench('proxy', ['--connections', '8', '--no-mitm', '--distinct-keys', '--warmup', '50', '--pin']);
    const r = resultOf<ProxyBenchResult>(run, 'proxy');
    expect(r.distinctKeys).toBe(true);
    expect(run.stdout).toContain('pinned: the proxy under test on CPU 0');
    expect(run.stdout).toContain(`${QUICK.requests} requests a run after at least 50 of warm-up`);
    expect(run.stdout).toContain('a user and a deposit of its own in every request');
    const desks = r.rows.filter((row) => row.target.startsWith('desk-'));
    expect(desks.map((row) => row.target)).toEqual(['desk-forward', 'desk-forward-10', 'desk-sandbox']);
    for (const row of desks) {
      const one = row.runs[0]!;
      const answered = one.warmup.completed + one.load.completed;
      expect(row.errors).toBe(0);
      expect(one.rows).toMatchObject({ inbound: answered, deposits: answered });
      expect(one.recorded).toBe(true);
    }
  }, 200_000);

  it('writes: each variant of the write path timed, and every capture written with its response', async () => {
    const run = await bench('writes');
    const r = resultOf<WriteBenchResult>(run, 'writes');
    expect(r.requests).toBe(QUICK.writes);
    expect(r.allWritten).toBe(true);
    expect(r.rows.map((x) => x.name)).toEqual([
      'shipped',
      'one key',
      'no key indexes',
      'no indexes',
      'old text triggers',
      'no profile indexes',
      'one key, no profile indexes',
    ]);
    for (const row of r.rows) {
      expect(positive(row.writeUs) && positive(row.framesPerCommit) && positive(row.vsShipped)).toBe(true);
      expect(row.runs.map((x) => x.written)).toEqual([true]);
    }
    expect(r.rows[0]!.vsShipped).toBe(1);
    // Fewer indexes, fewer pages written a commit: counted by SQLite, not timed.
    expect(r.rows[3]!.framesPerCommit).toBeLessThan(r.rows[0]!.framesPerCommit);
    expect(r.rows[5]!.framesPerCommit).toBeLessThan(r.rows[0]!.framesPerCommit);
  }, 120_000);

  it('store: every UI query timed through ExchangeStore, with its plan and an index-less baseline', async () => {
    const run = await bench('store');
    const r = resultOf<StoreBenchResult>(run, 'store');
    expect(r.rows).toBe(QUICK.rows);
    expect(positive(r.bytesPerRow)).toBe(true);
    const names = r.queries.map((q) => q.name);
    for (const wanted of [
      'first page',
      'by depositId',
      'by userId',
      'by verdict (rare: mismatch)',
      'deposit timeline',
      'search: a broad prefix',
      'counts (status bar)',
    ]) {
      expect(names).toContain(wanted);
    }
    for (const q of r.queries) {
      expect(q.calls).toBeGreaterThan(0);
      expect(Number.isFinite(q.p50) && Number.isFinite(q.p95)).toBe(true);
      expect(q.plan.length).toBeGreaterThan(0);
      expect(q.baseline?.plan.length ?? 0).toBeGreaterThan(0);
    }
    // The filtered lookups use their index; the baseline is barred from it.
    const byDeposit = r.queries.find((q) => q.name === 'by depositId')!;
    expect(byDeposit.plan.join('\n')).toContain('exchanges_deposit');
    expect(byDeposit.baseline!.plan.join('\n')).not.toContain('exchanges_deposit');
    expect(run.stdout).toContain('query plans (EXPLAIN QUERY PLAN):');
  }, 200_000);

  it('memory: RSS of serve sampled over the captures, every capture a row', async () => {
    const run = await bench('memory');
    const r = resultOf<MemoryBenchResult>(run, 'memory');
    expect(r.answered).toBeGreaterThanOrEqual(QUICK.captures);
    expect(r.rows).toEqual({ inbound: r.answered, answered: r.answered, valid: r.answered, deposits: expect.any(Number) });
    // Each load cycles through the same pool of 5,000 pays, each with its own deposit.
    expect(r.rows.deposits).toBeGreaterThan(1);
    expect(r.rows.deposits).toBeLessThanOrEqual(5_000);
    expect(r.samples.length).toBeGreaterThanOrEqual(2);
    expect(r.samples.every((s) => positive(s.rss))).toBe(true);
    expect(r.samples.map((s) => s.captures)).toEqual([...r.samples.map((s) => s.captures)].sort((a, b) => a - b));
    expect(positive(r.rssIdle) && positive(r.rssFinal)).toBe(true);
    expect(run.stdout).toContain(`rows check memory: requests=${r.answered} rows=${r.answered}`);
  }, 200_000);

  it('ui: the capture list renders in Chromium and scrolls, frames recorded', async () => {
    const run = await bench('ui');
    const r = resultOf<UiBenchResult>(run, 'ui');
    expect(r.rows).toBe(QUICK.uiRows);
    // The list shows the captured (inbound) rows; about one generated row in 200 is a replay.
    expect(r.captured).toBeGreaterThan(QUICK.uiRows * 0.95);
    expect(r.allShown).toBe(true);
    expect(r.firstRow.loads).toBe(2);
    expect(positive(r.firstRow.paintedP50)).toBe(true);
    expect(r.countsText).toContain(`${r.captured.toLocaleString('en-US')} captured`);
    expect(r.idle.frames).toBeGreaterThan(0);
    expect(r.scroll.map((x) => x.name)).toEqual([
      'steady scroll, 5 rows a frame',
      'fast flick, 3 screens a frame',
      'run to the end, 10 screens a frame',
      'steady scroll up, all rows loaded',
    ]);
    for (const s of r.scroll) {
      expect(s.frames).toBeGreaterThan(0);
      expect(s.rowsLoaded).toBeGreaterThan(0);
    }
    // Scrolling moved through the list and paged every row in by the end.
    expect(r.scroll[0]!.rowsPassed).toBeGreaterThan(0);
    expect(r.scroll[2]!.rowsLoaded).toBe(r.captured);
    expect(r.scroll[3]!.rowsPassed).toBeGreaterThan(0);
  }, 240_000);
  it('redeliver: every selection timed against its baselines, every failed capture sent and answered 2XX', async () => {
    const run = await bench('redeliver');
    const r = resultOf<RedeliverBenchResult>(run, 'redeliver');
    expect(r.rows).toBe(QUICK.logRows);
    expect(r.selections.map((x) => x.name)).toEqual(['--failed', '--since (the failed window)', '--user (one of 10,000)', '--kind pay --failed']);
    expect(r.selections[0]!.count).toBe(QUICK.redeliverSends);
    expect(r.runs).toHaveLength(1);
    const sends = QUICK.redeliverSends;
    expect(r.runs[0]).toMatchObject({ asked: sends, sent: sends, ok: sends, served: sends, rateAsked: 1000 });
    expect(positive(r.runs[0]!.rssStart) && positive(r.runs[0]!.rssEnd)).toBe(true);
    expect(r.allSent).toBe(true);
  }, 200_000);

  it('ndjson: every row listed, one line each, peak RSS measured against one page and a fifth', async () => {
    const run = await bench('ndjson');
    const r = resultOf<NdjsonBenchResult>(run, 'ndjson');
    expect(r.full.lines).toBe(QUICK.logRows);
    expect(r.fifth.lines).toBe(QUICK.logRows / 5);
    // One page: --limit 1000.
    expect(r.baseline.lines).toBe(1_000);
    expect(positive(r.full.rssPeak) && positive(r.baseline.rssPeak)).toBe(true);
  }, 200_000);
});

describe('bench smoke (--quick): prune', () => {
  it('prune: --keep 1000 under a paced load, every phase measured, no failure and no answer without its row', async () => {
    const run = await bench('prune');
    const r = resultOf<PruneBenchResult>(run, 'prune');
    expect(r.rows).toBe(QUICK.logRows);
    expect(r.phases.map((p) => p.name)).toEqual(['before', 'during', 'after']);
    for (const p of r.phases) {
      expect(p.failed).toBe(0);
      expect(p.non2xx).toBe(0);
      expect(p.answered).toBeGreaterThan(0);
      expect(positive(p.p50) && positive(p.p99) && positive(p.max)).toBe(true);
    }
    expect(r.answeredWithoutRow).toBe(0);
    expect(r.pruneOutput).toMatch(/^pruned \d+ exchanges/m);
    expect(positive(r.pruneSeconds)).toBe(true);
    // Kept: the newest 1,000 when the prune fixed its edge, and every capture of the load after it. The
    // load's captures are newer than every generated row, so at least the generated rows beyond the newest
    // 1,000 went (all of them when the load wrote 1,000 before the edge was fixed).
    expect(r.remainingAfter).toBeGreaterThan(1_000);
    expect(r.generatedDeleted).toBeGreaterThanOrEqual(r.rows - 1_000);
    expect(r.generatedDeleted).toBeLessThanOrEqual(r.rows);
    expect(run.stdout).toMatch(/rows check prune: answered=\d+ kept=\d+ pruned with the old rows=\d+ lost=0; failures=0/);
    // The generator's own stalls are reported, so that none is read as the proxy's.
    for (const g of r.generatorStalls) expect(g.ms).toBeGreaterThan(20);
    expect(run.stdout).toMatch(/the load generator( never stalled over 20 ms|'s own stalls over 20 ms: \d+)/);
  }, 200_000);
});

describe('bench smoke (--quick): tail', () => {
  it('tail: every row recorded is printed once, with the proxy measured with and without it', async () => {
    const run = await bench('tail', ['--connections', '8']);
    const r = resultOf<TailBenchResult>(run, 'tail');
    expect(r.noneLost).toBe(true);
    expect(r.rounds).toHaveLength(1);
    const [one] = r.rounds;
    expect(one!.rowsRecorded).toBe(QUICK.requests);
    expect(one!.linesSeen).toBe(QUICK.requests);
    expect(positive(one!.rpsWith) && positive(one!.rpsWithout) && positive(one!.ratio)).toBe(true);
    expect(run.stdout).toMatch(/req\/s without tail\s+req\/s with tail\s+with \/ without\s+proxy CPU\/req without\s+with\s+tail CPU\/line\s+lines \/ rows/);
  }, 200_000);
});

describe('bench smoke (--quick): the team store', () => {
  it('team-store: SQLite, PostgreSQL (its commits flushed or not) and two proxies each answer every request with its row, at both connection counts', async () => {
    const run = await bench('team-store', ['--connections', '4,8']);
    const r = resultOf<TeamStoreResult>(run, 'team-store');
    expect(r.allRecorded).toBe(true);
    expect(r.durable).toBe(true);
    expect(r.rows.map((x) => `${x.target}@${x.connections}`)).toEqual(
      [4, 8].flatMap((c) => ['sqlite', 'postgres', 'postgres-unflushed', 'postgres-x2'].map((t) => `${t}@${c}`)),
    );
    expect(r.settings.synchronousCommitSource).toBe('default');
    expect(run.stdout).toMatch(/PostgreSQL \/ SQLite forward throughput \d+\.\d+x/);
    expect(run.stdout).toMatch(/PostgreSQL with commits not flushed \/ SQLite \d+\.\d+x/);
  }, 200_000);

  it('team-scale: the list queries on the same log answer the same rows on SQLite and PostgreSQL', async () => {
    const run = await bench('team-scale');
    const r = resultOf<TeamScaleResult>(run, 'team-scale');
    expect(r.agree).toBe(true);
    expect(r.sqlite.map((t) => t.name)).toEqual(r.postgres.map((t) => t.name));
    expect(r.postgres.find((t) => t.name === 'by depositId')!.rows).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/both engines answered every query with the same rows/);
  }, 200_000);

  it('team-outage: the database stopped under load gives 503s, never a 2XX without its row, and the proxy comes back', async () => {
    const run = await bench('team-outage');
    const r = resultOf<OutageResult>(run, 'team-outage');
    expect(r.acknowledgedWithoutRow).toBe(0);
    expect(r.forwardedWithoutRow).toBe(0);
    expect(r.byStatus['503']).toBeGreaterThan(0);
    expect(r.recoveryMs).not.toBeNull();
  }, 200_000);
});

describe('bench smoke (--quick): search-beside', () => {
  it('search-beside: both engines, each phase with its callbacks all found and its UI operations counted', async () => {
    const run = await bench('search-beside');
    const r = resultOf<SearchBesideResult>(run, 'search-beside');
    expect(r.rows).toBe(QUICK.rows);
    expect(r.allRecorded).toBe(true);
    expect(r.engines.map((e) => e.engine)).toEqual(['sqlite', 'postgres']);
    expect(r.uiCalls).toBe('web');
    for (const e of r.engines) {
      expect(e.phases.map((p) => p.name)).toEqual(['alone', 'beside searches', 'beside exports']);
      for (const p of e.phases) {
        expect(p.sent).toBeGreaterThan(0);
        expect(p.found).toBe(p.sent);
        expect(positive(p.p50) && positive(p.p99)).toBe(true);
        expect(p.ops > 0).toBe(p.name !== 'alone');
        // Through the web mode's API by default: every call answered with its Result.
        expect(p.failedOps).toBe(0);
      }
      expect(e.textIndex.before).toMatch(/^indexed [\d,]+ of [\d,]+ rows$/);
    }
    expect(run.stdout).toMatch(/every callback has its row: yes/);
  }, 200_000);
});

describe('bench smoke (--quick): export-cost', () => {
  it('export-cost: both engines, each way in turn, every export answered, the thread time counted on Linux', async () => {
    const run = await bench('export-cost');
    const r = resultOf<ExportCostResult>(run, 'export-cost');
    expect(r.rows).toBe(QUICK.rows);
    expect(r.runs.map((x) => `${x.engine} ${x.calls}`)).toEqual(['sqlite in-process', 'sqlite web', 'postgres in-process', 'postgres web']);
    for (const x of r.runs) {
      expect(x.exports).toBeGreaterThan(0);
      expect(x.failed).toBe(0);
      expect(positive(x.exportMs)).toBe(true);
      if (process.platform === 'linux') expect(positive(x.threadMsPerExport ?? 0)).toBe(true);
    }
    expect(run.code).toBe(0);
  }, 200_000);
});
