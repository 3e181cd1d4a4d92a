// Benchmark: redelivery. (1) Selecting what a redelivery sends, in a log of --rows exchanges, against
// a COUNT(*) of the same table in the same run. (2) `wager-desk redeliver` (the CLI, its own process)
// sending --redeliver-sends failed captures to a local operator (bench/servers/upstream.mjs) at each
// rate asked: the rate achieved over the rate asked, and the RSS of the process at the start and the end.
import { spawn } from 'node:child_process';
import { connectionOf, openStore } from '../src-main/core/store/sqlite';
import { selectRedelivery } from '../src-main/core/redeliver/select';
import { sqliteSql } from '../src-main/core/store/sqlite/shared-sql';
import type { RedeliveryFilter, RedeliveryReport } from '../src-main/shared/model';
import { rssOf } from './lib/child';
import { deskCommand } from './lib/desk-cli';
import { filledHome } from './lib/filled-home';
import { fmtBytes, fmtInt, fmtMs, fmtRatio, percentile, timeSync } from './lib/stats';
import { table } from './lib/table';
import { startUpstream } from './lib/upstream';

export interface RedeliverBenchOptions {
  rows: number;
  sends: number;
  rates: number[];
  fromSource: boolean;
  scratch: string;
  log: (line: string) => void;
}

interface SelectionTiming {
  name: string;
  count: number;
  medianMs: number;
}

interface RateRun {
  /** Captures the run had to send. */
  asked: number;
  rateAsked: number;
  sent: number;
  ok: number;
  rateAchieved: number;
  rssStart: number;
  /** Halfway through the run: growth from here to the end is what a longer run would keep adding. */
  rssHalf: number;
  rssPeak: number;
  rssEnd: number;
  served: number;
}

export interface RedeliverBenchResult {
  rows: number;
  sends: number;
  deskLabel: string;
  baselineCountMs: number;
  /** A count over an unindexed column: every row read once, the least a selection on such a column can cost. */
  baselineScanMs: number;
  selections: SelectionTiming[];
  runs: RateRun[];
  allSent: boolean;
}

/** Marks the newest `sends` inbound callbacks as captured while the operator was down. */
function failNewest(home: string, sends: number): { firstId: number; firstAt: string; userId: string } {
  const store = openStore(home);
  try {
    const db = connectionOf(store);
    // Undo an earlier run in this process (the log is shared): every callback answered again, no redeliveries.
    db.prepare(`DELETE FROM exchanges WHERE origin = 'redeliver'`).run();
    db.prepare(`UPDATE exchanges SET res_status = 200, error = NULL WHERE res_status IS NULL`).run();
    db.prepare(
      `UPDATE exchanges SET res_status = NULL, error = 'connect ECONNREFUSED' WHERE id IN
         (SELECT id FROM exchanges WHERE direction = 'inbound' AND kind IN ('pay', 'results') ORDER BY id DESC LIMIT ?)`,
    ).run(sends);
    const first = db.prepare(`SELECT min(id) AS id FROM exchanges WHERE res_status IS NULL`).get() as { id: number };
    const row = db.prepare('SELECT at, user_id FROM exchanges WHERE id = ?').get(first.id) as { at: string; user_id: string };
    return { firstId: first.id, firstAt: row.at, userId: row.user_id };
  } finally {
    store.close();
  }
}

async function timeSelections(
  home: string,
  since: string,
  userId: string,
  log: (l: string) => void,
): Promise<{ baselineCountMs: number; baselineScanMs: number; selections: SelectionTiming[] }> {
  const store = openStore(home);
  try {
    const db = connectionOf(store);
    const countAll = db.prepare('SELECT count(*) FROM exchanges').pluck();
    const baseline = percentile(
      timeSync(() => countAll.get(), 5),
      50,
    );
    const scanAll = db.prepare('SELECT count(*) FROM exchanges WHERE error IS NOT NULL').pluck();
    const scan = percentile(
      timeSync(() => scanAll.get(), 5),
      50,
    );
    const filters: Array<[string, RedeliveryFilter]> = [
      ['--failed', { failed: true }],
      ['--since (the failed window)', { since }],
      ['--user (one of 10,000)', { userId }],
      ['--kind pay --failed', { kind: 'pay', failed: true }],
    ];
    const sql = sqliteSql((plan) => store.read(plan));
    const selections: SelectionTiming[] = [];
    for (const [name, filter] of filters) {
      let count = 0;
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        count = (await selectRedelivery(sql, filter, null)).count;
        times.push(performance.now() - started);
      }
      const ms = percentile(times, 50);
      log(`  ${name}: ${fmtInt(count)} selected in ${fmtMs(ms)}`);
      selections.push({ name, count, medianMs: ms });
    }
    return { baselineCountMs: baseline, baselineScanMs: scan, selections };
  } finally {
    store.close();
  }
}

async function servedBy(url: string): Promise<number> {
  const res = await fetch(`${url}/__bench/count`);
  return ((await res.json()) as { served: number }).served;
}

/** One `wager-desk redeliver --json` run; RSS sampled every 250 ms. */
async function runCli(nodeArgs: string[], home: string, args: string[]): Promise<{ report: RedeliveryReport; rss: number[] }> {
  const child = spawn(process.execPath, [...nodeArgs, '--home', home, 'redeliver', ...args, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.on('data', (d: Buffer) => err.push(d));
  const rss: number[] = [];
  const timer = setInterval(() => {
    const r = child.pid !== undefined ? rssOf(child.pid) : null;
    if (r !== null) rss.push(r);
  }, 250);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(timer);
  const text = Buffer.concat(out).toString('utf8');
  if (code !== 0 && code !== 1) throw new Error(`redeliver exited ${code}: ${Buffer.concat(err).toString('utf8')}`);
  return { report: JSON.parse(text) as RedeliveryReport, rss };
}

export async function runRedeliverBench(o: RedeliverBenchOptions): Promise<RedeliverBenchResult> {
  const home = filledHome(o.scratch, o.rows, o.log);
  const desk = await deskCommand(o.fromSource);
  o.log(`  desk: ${desk.label}`);
  const failed = failNewest(home, o.sends);
  const { baselineCountMs, baselineScanMs, selections } = await timeSelections(home, failed.firstAt, failed.userId, o.log);

  const upstream = startUpstream();
  const runs: RateRun[] = [];
  try {
    const url = await upstream.url;
    for (const [i, rate] of o.rates.entries()) {
      // The first rate sends them all; the others a 10-second slice (the same pacer, a shorter run).
      const n = i === 0 ? o.sends : Math.min(o.sends, Math.ceil(rate * 10));
      failNewest(home, n);
      const before = await servedBy(url);
      o.log(`  redeliver ${fmtInt(n)} at ${fmtInt(rate)}/s...`);
      const { report, rss } = await runCli(desk.nodeArgs, home, ['--failed', '--to', url, '--rate', String(rate)]);
      const served = (await servedBy(url)) - before;
      // The first samples are the process starting (Node, SQLite, the selection): "start" is 1 s in.
      const start = rss[Math.min(rss.length - 1, 4)] ?? 0;
      runs.push({
        asked: n,
        rateAsked: rate,
        sent: report.sent,
        ok: report.ok,
        rateAchieved: report.sent / (report.durationMs / 1000),
        rssStart: start,
        rssHalf: rss[Math.floor(rss.length / 2)] ?? 0,
        rssPeak: Math.max(...rss, 0),
        rssEnd: rss.at(-1) ?? 0,
        served,
      });
    }
  } finally {
    await upstream.child.stop();
  }
  return {
    rows: o.rows,
    sends: o.sends,
    deskLabel: desk.label,
    baselineCountMs,
    baselineScanMs,
    selections,
    runs,
    allSent: runs.every((r) => r.sent === r.asked && r.ok === r.asked && r.served === r.asked),
  };
}

export function formatRedeliverResult(r: RedeliverBenchResult): string {
  const sel = table(
    ['selection', 'selected', 'median', 'vs COUNT(*)', 'vs a full scan'],
    [
      ['baseline: SELECT count(*) FROM exchanges', fmtInt(r.rows), fmtMs(r.baselineCountMs), '1.00x', fmtRatio(r.baselineCountMs / r.baselineScanMs)],
      ['baseline: count(*) WHERE error IS NOT NULL (a full scan)', '-', fmtMs(r.baselineScanMs), fmtRatio(r.baselineScanMs / r.baselineCountMs), '1.00x'],
      ...r.selections.map((s) => [
        s.name,
        fmtInt(s.count),
        fmtMs(s.medianMs),
        fmtRatio(s.medianMs / r.baselineCountMs),
        fmtRatio(s.medianMs / r.baselineScanMs),
      ]),
    ],
  );
  const runs = table(
    ['rate asked', 'sent', '2XX', 'operator got', 'rate achieved', 'achieved/asked', 'RSS start', 'RSS half', 'RSS peak', 'RSS end', 'end/start', 'end/half'],
    r.runs.map((x) => [
      `${fmtInt(x.rateAsked)}/s`,
      fmtInt(x.sent),
      fmtInt(x.ok),
      fmtInt(x.served),
      `${x.rateAchieved.toFixed(0)}/s`,
      fmtRatio(x.rateAchieved / x.rateAsked),
      fmtBytes(x.rssStart),
      fmtBytes(x.rssHalf),
      fmtBytes(x.rssPeak),
      fmtBytes(x.rssEnd),
      fmtRatio(x.rssEnd / x.rssStart),
      fmtRatio(x.rssEnd / x.rssHalf),
    ]),
  );
  return `selection in a log of ${fmtInt(r.rows)} exchanges (median of 5):\n${sel}\n\nredeliver of failed captures (${r.deskLabel}):\n${runs}${r.allSent ? '' : '\nNOT every capture was sent and answered 2XX'}`;
}
