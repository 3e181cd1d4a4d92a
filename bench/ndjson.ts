// Benchmark: `wager-desk captures --ndjson --limit N` over a log of --rows exchanges, read to the end by
// a consumer that counts lines. Flat memory means the peak RSS of the whole listing stays near the peak
// RSS of listing one page (--limit 1000) in the same run.
import { spawn } from 'node:child_process';
import { rssOf } from './lib/child';
import { deskCommand } from './lib/desk-cli';
import { filledHome } from './lib/filled-home';
import { fmtBytes, fmtInt, fmtRatio } from './lib/stats';
import { table } from './lib/table';

export interface NdjsonBenchOptions {
  rows: number;
  fromSource: boolean;
  scratch: string;
  log: (line: string) => void;
}

interface Listing {
  limit: number;
  lines: number;
  seconds: number;
  rssPeak: number;
  rssSamples: number;
}

export interface NdjsonBenchResult {
  rows: number;
  deskLabel: string;
  baseline: Listing;
  /** A fifth of the rows: flat memory means the full listing peaks where this one does. */
  fifth: Listing;
  full: Listing;
  allListed: boolean;
}

async function listing(nodeArgs: string[], home: string, limit: number): Promise<Listing> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, '--home', home, 'captures', '--all', '--ndjson', '--limit', String(limit)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let lines = 0;
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  let rssPeak = 0;
  let rssSamples = 0;
  const timer = setInterval(() => {
    const r = child.pid !== undefined ? rssOf(child.pid) : null;
    if (r !== null) ((rssPeak = Math.max(rssPeak, r)), rssSamples++);
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`captures exited ${code}: ${err}`);
  return { limit, lines, seconds: (performance.now() - t0) / 1000, rssPeak, rssSamples };
}

export async function runNdjsonBench(o: NdjsonBenchOptions): Promise<NdjsonBenchResult> {
  const home = filledHome(o.scratch, o.rows, o.log);
  const desk = await deskCommand(o.fromSource);
  o.log(`  desk: ${desk.label}`);
  const baseline = await listing(desk.nodeArgs, home, 1000);
  o.log(`  one page: ${fmtInt(baseline.lines)} lines, peak RSS ${fmtBytes(baseline.rssPeak)}`);
  const fifth = await listing(desk.nodeArgs, home, Math.max(1, Math.floor(o.rows / 5)));
  const full = await listing(desk.nodeArgs, home, o.rows);
  o.log(`  all: ${fmtInt(full.lines)} lines in ${full.seconds.toFixed(1)} s, peak RSS ${fmtBytes(full.rssPeak)}`);
  return { rows: o.rows, deskLabel: desk.label, baseline, fifth, full, allListed: full.lines === o.rows && baseline.lines === Math.min(1000, o.rows) };
}

export function formatNdjsonResult(r: NdjsonBenchResult): string {
  const row = (name: string, x: Listing): string[] => [
    name,
    fmtInt(x.lines),
    `${x.seconds.toFixed(1)} s`,
    `${fmtInt(x.lines / x.seconds)}/s`,
    fmtBytes(x.rssPeak),
    fmtRatio(x.rssPeak / r.baseline.rssPeak),
    fmtRatio(x.rssPeak / r.fifth.rssPeak),
  ];
  return `${table(['captures --all --ndjson', 'lines', 'time', 'lines/s', 'peak RSS', 'vs one page', 'vs a fifth'], [row('baseline: --limit 1000', r.baseline), row(`--limit ${fmtInt(r.fifth.limit)}`, r.fifth), row(`--limit ${fmtInt(r.rows)}`, r.full)])}\n(${r.deskLabel})${
    r.allListed ? '' : '\nNOT every row was listed'
  }`;
}
