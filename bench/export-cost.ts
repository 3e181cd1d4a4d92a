// What an export costs the proxy's thread: its CPU (Linux's schedstat of this process's main thread, the
// proxy's) over `seconds` of HAR exports of the newest EXPORT_ROWS captures without pause, on each engine's
// log of `rows` answered pays. Two ways, in turn: called in this process, and through the web mode's API
// from a thread of its own, as a page sends them (what the web server does for the call is on the proxy's
// thread, as it is for a real page). The figure is the proxy's thread's CPU over the run divided by the
// exports made: no callbacks are sent, so nothing else runs on it meanwhile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDesk } from '../src-main/core/desk';
import { startWebUi, type WebUi } from '../src-main/cli/web';
import { slowSearchRow as row } from '../test/helpers/slow-search-log';
import type { BenchEngine } from './lib/args';
import { startBenchPostgres, type BenchPostgres } from './lib/postgres';
import { answeredRows, fillPostgres } from './lib/postgres-fill';
import { ANSWER, EXPORT_ROWS, fillSqlite } from './lib/answered-log';
import { mainThreadSched } from './lib/proc-cpu';
import { fmtInt, fmtMs } from './lib/stats';
import { table } from './lib/table';
import { busyWebUi } from './lib/web-ui-client';

export type ExportCalls = 'in-process' | 'web';

export interface ExportCostRun {
  engine: BenchEngine;
  calls: ExportCalls;
  exports: number;
  failed: number;
  /** Mean time of an export, from its call to its whole answer. */
  exportMs: number;
  /** The proxy's thread's CPU an export (ms); null where Linux's schedstat is not there. */
  threadMsPerExport: number | null;
}

export interface ExportCostResult {
  rows: number;
  seconds: number;
  rounds: number;
  runs: ExportCostRun[];
}

/** Exports in-process without pause for `seconds`: how many, how many failed, their mean time. */
async function exportInProcess(desk: ReturnType<typeof createDesk>, seconds: number): Promise<{ ops: number; failedOps: number; opMs: number }> {
  let ops = 0;
  let failedOps = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) {
    if (!(await desk.exportHar({ limit: EXPORT_ROWS })).ok) failedOps++;
    ops++;
  }
  return { ops, failedOps, opMs: ops ? (performance.now() - t0) / ops : 0 };
}

async function runEngine(engine: BenchEngine, o: { rows: number; seconds: number; rounds: number }, server: BenchPostgres | null): Promise<ExportCostRun[]> {
  const home = mkdtempSync(join(tmpdir(), 'wager-desk-export-cost-'));
  let url: string | null = null;
  let desk: ReturnType<typeof createDesk> | null = null;
  let web: WebUi | null = null;
  try {
    url = engine === 'postgres' ? await server!.newDatabase() : null;
    if (url) await fillPostgres(url, answeredRows(o.rows, row, ANSWER));
    desk = createDesk({ home, database: url });
    if (engine === 'sqlite') fillSqlite(desk, o.rows, row, ANSWER);
    web = await startWebUi(desk, { port: 0 });
    const page = { url: new URL(web.url).origin, token: new URL(web.url).hash.slice('#token='.length) };
    // Warm: the export thread started, the statements prepared, the connections open.
    for (let i = 0; i < 5; i++) await desk.exportHar({ limit: EXPORT_ROWS });
    const runs: ExportCostRun[] = [];
    for (let round = 0; round < o.rounds; round++) {
      for (const calls of ['in-process', 'web'] as const) {
        const before = mainThreadSched()?.cpuMs ?? null;
        let done: { ops: number; failedOps: number; opMs: number };
        if (calls === 'in-process') done = await exportInProcess(desk, o.seconds);
        else {
          const ui = busyWebUi(page, 'exportHar', [{ limit: EXPORT_ROWS }]);
          await new Promise((resolve) => setTimeout(resolve, o.seconds * 1000));
          done = await ui.stop();
        }
        const after = mainThreadSched()?.cpuMs ?? null;
        runs.push({
          engine,
          calls,
          exports: done.ops,
          failed: done.failedOps,
          exportMs: done.opMs,
          threadMsPerExport: before !== null && after !== null && done.ops > 0 ? (after - before) / done.ops : null,
        });
      }
    }
    return runs;
  } finally {
    await web?.close();
    await desk?.close();
    if (url) await server!.dropDatabase(url);
    rmSync(home, { recursive: true, force: true });
  }
}

export async function runExportCostBench(o: { rows: number; seconds: number; rounds: number; engines: readonly BenchEngine[] }): Promise<ExportCostResult> {
  const server = o.engines.includes('postgres') ? await startBenchPostgres() : null;
  try {
    const runs: ExportCostRun[] = [];
    for (const engine of o.engines) runs.push(...(await runEngine(engine, o, server)));
    return { rows: o.rows, seconds: o.seconds, rounds: o.rounds, runs };
  } finally {
    await server?.stop();
  }
}

const ENGINE_NAME: Record<BenchEngine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

export function formatExportCostResult(r: ExportCostResult): string {
  return [
    table(
      ['engine', 'calls', 'exports', 'failed', 'mean time', "proxy thread's CPU an export"],
      r.runs.map((x) => [
        ENGINE_NAME[x.engine],
        x.calls,
        fmtInt(x.exports),
        fmtInt(x.failed),
        fmtMs(x.exportMs),
        x.threadMsPerExport === null ? 'not on this system' : fmtMs(x.threadMsPerExport),
      ]),
    ),
    `HARs of the newest ${EXPORT_ROWS} of ${fmtInt(r.rows)} answered pays, ${r.seconds} s each way a round, ${r.rounds} round${r.rounds === 1 ? '' : 's'}, in turn`,
  ].join('\n');
}
