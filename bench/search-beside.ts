// The promise that a person's reads never delay a capture: callbacks at a fixed rate into a desk whose log
// holds `rows` rows, on SQLite and on PostgreSQL, in rounds of three phases of `seconds` each: alone, beside a
// UI that searches without pause (a search that walks the whole log: a word every row holds, among the
// `valid` rows, which none is), and beside a UI that exports without pause (a HAR of the newest EXPORT_ROWS
// captures, as the Export HAR button asks for it). One phase's p99 moves by tens of milliseconds from run
// to run on two shared cores; each round's phases are compared with that round's alone, and the median of
// those differences is the figure. Prints each kind of phase's p50 and p99 over all rounds, the median
// difference, each round's p99, and whether every callback has its row. The load generator runs in the desk's process (its event loop is the
// proxy's): what it measures is whether the searches and exports hold that loop.
import type pg from 'pg';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDesk, type Desk } from '../src-main/core/desk';
import { storeOf } from '../src-main/core/desk/seams';
import { connectionOf } from '../src-main/core/store/sqlite';
import { SLOW_SEARCH as SEARCH, slowSearchRow as row } from '../test/helpers/slow-search-log';
import type { BenchEngine } from './lib/args';
import { startBenchPostgres, type BenchPostgres } from './lib/postgres';
import { answeredRows, fillPostgres } from './lib/postgres-fill';
import { ANSWER, EXPORT_ROWS, fillSqlite } from './lib/answered-log';
import { mainThreadSched } from './lib/proc-cpu';
import { fmtInt, fmtMs, percentile } from './lib/stats';
import { table } from './lib/table';
import { busyWebUi, type BusyUi } from './lib/web-ui-client';
import { startWebUi, type WebUi } from '../src-main/cli/web';
import { connectPostgres } from '../src-main/core/store/postgres';

/** A desk method the UI calls without pause, and its arguments. */
interface UiCall {
  method: 'listExchanges' | 'exportHar';
  args: unknown[];
}

/** Where the UI's calls come from: the web mode's API (a page, a thread of its own), or this process's own calls. */
export type UiCalls = 'web' | 'in-process';

export interface PhaseResult {
  name: 'alone' | 'beside searches' | 'beside exports';
  sent: number;
  /** Callbacks whose row the log holds afterwards. */
  found: number;
  /** Over every round's callbacks. */
  p50: number;
  p99: number;
  /** Each round's p99. */
  p99ByRound: number[];
  /** The median over rounds of this phase's p99 minus the same round's alone. */
  p99Diff: number;
  /** The proxy's event loop: the longest 1% of its delays (ms), the median over rounds. A callback's wait beyond it was not on the loop. */
  loopP99: number;
  /**
   * The proxy's thread, a second of the phase (median over rounds): ms of CPU it ran and ms it waited for
   * a core (Linux's schedstat); null elsewhere. A wait that grows while its CPU does not: the cores were busy.
   */
  thread: { cpuMs: number; waitMs: number } | null;
  /** Searches or exports done during the phase, how many the store stopped or refused, and their mean time. */
  ops: number;
  failedOps: number;
  opMs: number;
}

export interface EngineResult {
  engine: BenchEngine;
  fillMs: number;
  /** The text index before the phases and after them: rows indexed of the log's rows. */
  textIndex: { before: string; after: string };
  phases: PhaseResult[];
  allRecorded: boolean;
}

export interface SearchBesideResult {
  rows: number;
  rate: number;
  seconds: number;
  rounds: number;
  uiCalls: UiCalls;
  server: string | null;
  engines: EngineResult[];
  allRecorded: boolean;
}

/**
 * Callbacks at `rate` a second for `seconds`, each timed to its answer; their deposit ids. Not
 * lib/paced-load.ts: its pacer ticks every millisecond, and here it would tick on the loop under test
 * (the proxy's, in this process); at 50 a second one timer per callback is all the pacing needed.
 */
async function pacedCallbacks(url: string, rate: number, seconds: number, tag: string): Promise<{ ms: number[]; ids: string[] }> {
  const ms: number[] = [];
  const ids: string[] = [];
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const depositId = `${tag}-${i}`;
    ids.push(depositId);
    // Timed from when it was due: a callback held behind a stalled loop counts its wait.
    sends.push(
      fetch(`${url}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"depositId":"${depositId}","userId":"u","amount":1,"currency":"USD"}`,
      })
        .then((r) => r.arrayBuffer())
        .then(() => void ms.push(performance.now() - due)),
    );
  }
  await Promise.all(sends);
  return { ms, ids };
}

/** A UI in this process that calls `op` without pause until told to stop: how many calls, how many failed, their mean time. */
function busyUi(op: () => Promise<boolean>): BusyUi {
  let running = true;
  let ops = 0;
  let failedOps = 0;
  let totalMs = 0;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      if (!(await op())) failedOps++;
      totalMs += performance.now() - t0;
      ops++;
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { ops, failedOps, opMs: ops ? totalMs / ops : 0 };
    },
  };
}

/** `fn` on a connection of its own to `url`, ended after it. */
async function onPostgres<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connectPostgres(url, { numbers: true });
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The machine's pages written but not yet on disk (MB), from /proc/meminfo; null where there is none. */
function dirtyMb(): number | null {
  try {
    const kb = /^Dirty:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    return kb ? Math.round(Number(kb[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * The fill on disk before any phase: on PostgreSQL vacuumed first; the engine's checkpoint, then every dirty page of the machine
 * written (sync). Without it, the kernel writes the fill's pages back about 30 s after they were written
 * (vm.dirty_expire_centisecs), in whichever phase runs then, and each commit's fsync waits behind that:
 * on PostgreSQL at 200,000 rows, 300 MB written back during the first phase after the fill held commits
 * 0.5 s, whichever phase it was; with this step, no phase met it.
 */
async function settleOnDisk(engine: BenchEngine, desk: Desk, url: string | null): Promise<void> {
  if (engine === 'sqlite') connectionOf(storeOf(desk)).pragma('wal_checkpoint(TRUNCATE)');
  // Vacuumed and analyzed now, as a team's long-lived table is: a million inserts pass autovacuum's insert
  // threshold, and its pass over the table would otherwise come in whichever phase runs then.
  else await onPostgres(url!, async (c) => void (await c.query('VACUUM (ANALYZE) exchanges'), await c.query('CHECKPOINT')));
  execFileSync('sync');
}

/** "indexed N of M rows" from the engine's own bookkeeping of its text index. */
async function textIndexState(engine: BenchEngine, desk: Desk, url: string | null): Promise<string> {
  const sql = 'SELECT (SELECT indexed_upto FROM exchange_text_state) AS upto, (SELECT max(id) FROM exchanges) AS rows';
  type State = { upto: number; rows: number };
  const state =
    engine === 'sqlite' ? (connectionOf(storeOf(desk)).prepare(sql).get() as State) : await onPostgres(url!, async (c) => (await c.query<State>(sql)).rows[0]!);
  return `indexed ${fmtInt(Number(state.upto))} of ${fmtInt(Number(state.rows))} rows`;
}

/** One phase of one round: its callbacks' times and deposit ids, the UI's operations, the loop's p99 delay. */
interface PhaseRun {
  sent: { ms: number[]; ids: string[] };
  done: { ops: number; failedOps: number; opMs: number };
  loopP99: number;
  thread: { cpuMs: number; waitMs: number } | null;
}

async function runEngine(
  engine: BenchEngine,
  o: { rows: number; rate: number; seconds: number; rounds: number; uiCalls: UiCalls; log: (line: string) => void },
  server: BenchPostgres | null,
): Promise<EngineResult> {
  const home = mkdtempSync(join(tmpdir(), 'wager-desk-search-beside-'));
  let url: string | null = null;
  let web: WebUi | null = null;
  const t0 = performance.now();
  if (engine === 'postgres') {
    url = await server!.newDatabase();
    await fillPostgres(url, answeredRows(o.rows, row, ANSWER), (done) =>
      o.log(`postgres: ${fmtInt(done)} rows (${((performance.now() - t0) / 1000).toFixed(0)} s)`),
    );
  }
  const desk = createDesk({ home, database: url });
  try {
    if (engine === 'sqlite') fillSqlite(desk, o.rows, row, ANSWER);
    const fillMs = performance.now() - t0;
    o.log(`${engine}: filled ${fmtInt(o.rows)} rows in ${(fillMs / 1000).toFixed(1)} s; ${dirtyMb() ?? '?'} MB not yet on disk`);
    await settleOnDisk(engine, desk, url);
    const status = await desk.startProxy({ port: 0 });
    if (!status.ok) throw new Error(status.error.message);
    const proxy = status.value.proxy.url!;
    const before = await textIndexState(engine, desk, url);
    await pacedCallbacks(proxy, o.rate, 1, 'warm');

    // The UI's calls: through the web mode's API from a thread of their own, as a page sends them, or in this process.
    web = o.uiCalls === 'web' ? await startWebUi(desk, { port: 0 }) : null;
    const page = web ? { url: new URL(web.url).origin, token: new URL(web.url).hash.slice('#token='.length) } : null;
    const startUi = (call: UiCall): BusyUi => {
      if (page) return busyWebUi(page, call.method, call.args);
      const fn = desk[call.method] as (...args: unknown[]) => Promise<{ ok: boolean }>;
      return busyUi(async () => (await fn.apply(desk, call.args)).ok);
    };
    const phase = async (name: PhaseResult['name'], call: UiCall | null, round: number): Promise<PhaseRun> => {
      const ui = call ? startUi(call) : null;
      const loop = monitorEventLoopDelay({ resolution: 1 });
      const schedBefore = mainThreadSched();
      const started = performance.now();
      loop.enable();
      const sent = await pacedCallbacks(proxy, o.rate, o.seconds, `${name.replace(' ', '-')}-${round}`);
      loop.disable();
      const schedAfter = mainThreadSched();
      const seconds = (performance.now() - started) / 1000;
      const thread =
        schedBefore && schedAfter
          ? { cpuMs: (schedAfter.cpuMs - schedBefore.cpuMs) / seconds, waitMs: (schedAfter.waitMs - schedBefore.waitMs) / seconds }
          : null;
      const done = ui ? await ui.stop() : { ops: 0, failedOps: 0, opMs: 0 };
      o.log(`${engine}: round ${round}, ${name}: p99 ${fmtMs(percentile(sent.ms, 99))}, ${done.ops} operations, ${dirtyMb() ?? '?'} MB not yet on disk`);
      return { sent, done, loopP99: loop.percentile(99) / 1e6, thread };
    };
    const kinds: Array<[PhaseResult['name'], UiCall | null]> = [
      ['alone', null],
      ['beside searches', { method: 'listExchanges', args: [SEARCH] }],
      ['beside exports', { method: 'exportHar', args: [{ limit: EXPORT_ROWS }] }],
    ];
    const rounds: PhaseRun[][] = [];
    for (let round = 1; round <= o.rounds; round++) {
      const runs: PhaseRun[] = [];
      for (const [name, call] of kinds) runs.push(await phase(name, call, round));
      rounds.push(runs);
    }
    const after = await textIndexState(engine, desk, url);

    const phases: PhaseResult[] = [];
    for (const [k, [name]] of kinds.entries()) {
      const runs = rounds.map((r) => r[k]!);
      let found = 0;
      for (const id of runs.flatMap((r) => r.sent.ids)) {
        const page = await desk.listExchanges({ depositId: id, allProfiles: true });
        if (page.ok && page.value.items.length === 1) found++;
      }
      const all = runs.flatMap((r) => r.sent.ms);
      const p99ByRound = runs.map((r) => percentile(r.sent.ms, 99));
      const ops = runs.reduce((n, r) => n + r.done.ops, 0);
      phases.push({
        name,
        sent: all.length,
        found,
        p50: percentile(all, 50),
        p99: percentile(all, 99),
        p99ByRound,
        p99Diff: percentile(
          rounds.map((r, i) => p99ByRound[i]! - percentile(r[0]!.sent.ms, 99)),
          50,
        ),
        loopP99: percentile(
          runs.map((r) => r.loopP99),
          50,
        ),
        thread: runs.every((r) => r.thread)
          ? {
              cpuMs: percentile(
                runs.map((r) => r.thread!.cpuMs),
                50,
              ),
              waitMs: percentile(
                runs.map((r) => r.thread!.waitMs),
                50,
              ),
            }
          : null,
        ops,
        failedOps: runs.reduce((n, r) => n + r.done.failedOps, 0),
        opMs: ops ? runs.reduce((t, r) => t + r.done.opMs * r.done.ops, 0) / ops : 0,
      });
    }
    return { engine, fillMs, textIndex: { before, after }, phases, allRecorded: phases.every((p) => p.found === p.sent) };
  } finally {
    await web?.close();
    await desk.close();
    if (url) await server!.dropDatabase(url);
    rmSync(home, { recursive: true, force: true });
  }
}

export async function runSearchBesideBench(o: {
  rows: number;
  rate: number;
  seconds: number;
  rounds: number;
  engines: readonly BenchEngine[];
  uiCalls: UiCalls;
  log: (line: string) => void;
}): Promise<SearchBesideResult> {
  const server = o.engines.includes('postgres') ? await startBenchPostgres() : null;
  try {
    const engines: EngineResult[] = [];
    for (const engine of o.engines) engines.push(await runEngine(engine, o, server));
    return {
      rows: o.rows,
      rate: o.rate,
      seconds: o.seconds,
      rounds: o.rounds,
      uiCalls: o.uiCalls,
      server: server?.label ?? null,
      engines,
      allRecorded: engines.every((e) => e.allRecorded),
    };
  } finally {
    await server?.stop();
  }
}

const ENGINE_NAME: Record<BenchEngine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

export function formatSearchBesideResult(r: SearchBesideResult): string {
  const ui = (p: PhaseResult): string =>
    p.name === 'alone' ? '' : `${fmtInt(p.ops)} of ${fmtMs(p.opMs)}${p.failedOps ? ` (${fmtInt(p.failedOps)} stopped or refused)` : ''}`;
  return [
    table(
      [
        'engine',
        'callbacks',
        'sent',
        'rows found',
        'p50',
        'p99',
        'p99 by round',
        'p99 vs alone (median)',
        "loop's p99 delay",
        "proxy thread's CPU / wait for a core, a second",
        'UI operations (mean time)',
      ],
      r.engines.flatMap((e) =>
        e.phases.map((p) => [
          ENGINE_NAME[e.engine],
          p.name,
          fmtInt(p.sent),
          fmtInt(p.found),
          fmtMs(p.p50),
          fmtMs(p.p99),
          p.p99ByRound.map((v) => fmtMs(v)).join(' / '),
          p.name === 'alone' ? '' : `${p.p99Diff >= 0 ? '+' : '-'}${fmtMs(Math.abs(p.p99Diff))}`,
          fmtMs(p.loopP99),
          p.thread ? `${p.thread.cpuMs.toFixed(0)} / ${p.thread.waitMs.toFixed(0)} ms` : 'not on this system',
          ui(p),
        ]),
      ),
    ),
    ...r.engines.map(
      (e) =>
        `${ENGINE_NAME[e.engine]}: filled in ${(e.fillMs / 1000).toFixed(1)} s; text index before the phases: ${e.textIndex.before}, after: ${e.textIndex.after}`,
    ),
    ...(r.server ? [`PostgreSQL: ${r.server}`] : []),
    `${r.rate}/s over ${r.seconds} s a phase, ${r.rounds} round${r.rounds === 1 ? '' : 's'}, ${fmtInt(r.rows)} rows; the UI's calls ${r.uiCalls === 'web' ? "through the web mode's API, from a thread of their own" : 'in-process'}; exports: a HAR of the newest ${EXPORT_ROWS} captures; every callback has its row: ${r.allRecorded ? 'yes' : 'NO'}`,
  ].join('\n');
}
