// Two builds' CPU profiles of the same `--cpu-prof` run compared: every thread of each `serve` (the main
// thread, the WAL checkpointer, the text indexer), self time summed per function over the load itself
// (from the main thread's first socket write to its last, so the start and the shutdown are left out),
// averaged per run, and listed by how much the two builds differ. Usage:
//   node --import tsx bench/profile-compare.ts DIR [--top N] [--runs REGEX]
// DIR is a --cpu-prof directory of a `--baseline` run: desk-forward-c50-rN (this build) and
// desk-forward-baseline-c50-rN (the baseline); --runs picks the folders (default: the closed-loop rounds).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

interface Totals {
  runs: number;
  mainBusy: number;
  workersBusy: number;
  byFunction: Map<string, number>;
}

function moduleOf(fn: string, url: string): string {
  if (url === '') return fn.startsWith('(') ? fn : '(native)';
  if (/out\/main\/|wager-desk-bench\//.test(url)) return 'desk';
  if (url.includes('worker eval')) return 'worker';
  const npm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (npm) return `npm:${npm[1]}`;
  return url.startsWith('node:') ? url.replace(/^node:(?:internal\/)?([^/]+).*$/, 'node:$1') : url;
}

/** Each sample's node and its time (µs, the profile's clock: the same for every thread of a process). */
function samplesOf(p: Profile): Array<{ node: ProfileNode; at: number; ms: number }> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  let at = p.startTime;
  return p.samples.map((id, i) => {
    at += p.timeDeltas[i] ?? 0;
    return { node: byId.get(id)!, at, ms: (p.timeDeltas[i] ?? 0) / 1000 };
  });
}

function addRun(dir: string, totals: Totals): void {
  // The largest profile is the main thread's; the others are its workers'.
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  if (files.length === 0) return;
  const threads = files.map((f) => samplesOf(JSON.parse(readFileSync(f, 'utf8')) as Profile));
  const writes = threads[0]!.filter((s) => s.node.callFrame.functionName === 'writev').map((s) => s.at);
  if (writes.length === 0) return;
  const from = Math.min(...writes);
  const to = Math.max(...writes);
  totals.runs++;
  threads.forEach((samples, thread) => {
    for (const { node, at, ms } of samples) {
      const { functionName, url } = node.callFrame;
      if (at < from || at > to || functionName === '(idle)') continue;
      if (thread === 0) totals.mainBusy += ms;
      else totals.workersBusy += ms;
      const key = `${thread === 0 ? '' : 'worker: '}${functionName || '(anonymous)'} [${moduleOf(functionName, url)}]`;
      totals.byFunction.set(key, (totals.byFunction.get(key) ?? 0) + ms);
    }
  });
}

const { positionals, values } = parseArgs({ allowPositionals: true, options: { top: { type: 'string' }, runs: { type: 'string' } } });
const root = positionals[0];
if (!root) {
  process.stderr.write('usage: node --import tsx bench/profile-compare.ts DIR [--top N] [--runs REGEX]\n');
  process.exit(2);
}
const top = Number(values.top ?? 40);
const runs = new RegExp(values.runs ?? '-c\\d+-r\\d+$');
const empty = (): Totals => ({ runs: 0, mainBusy: 0, workersBusy: 0, byFunction: new Map() });
const mine = empty();
const base = empty();
for (const entry of readdirSync(root)) {
  if (!entry.startsWith('desk-forward') || !runs.test(entry)) continue;
  addRun(join(root, entry), entry.includes('baseline') ? base : mine);
}
if (mine.runs === 0 || base.runs === 0) {
  process.stderr.write(`no runs of both builds under ${root}\n`);
  process.exit(1);
}
const per = (t: Totals, ms: number): number => ms / t.runs;
const line = (a: number, b: number, what: string): string =>
  `${a.toFixed(1).padStart(9)} ${b.toFixed(1).padStart(9)} ${(a - b).toFixed(1).padStart(9)}  ${what}`;
const out = [
  `${mine.runs} runs of this build, ${base.runs} of the baseline; ms per run: this, baseline, difference`,
  line(per(mine, mine.mainBusy), per(base, base.mainBusy), 'main thread busy'),
  line(per(mine, mine.workersBusy), per(base, base.workersBusy), 'worker threads busy'),
  '',
];
const keys = new Set([...mine.byFunction.keys(), ...base.byFunction.keys()]);
const rows = [...keys].map((k) => ({ k, a: per(mine, mine.byFunction.get(k) ?? 0), b: per(base, base.byFunction.get(k) ?? 0) }));
rows.sort((x, y) => Math.abs(y.a - y.b) - Math.abs(x.a - x.b));
for (const r of rows.slice(0, top)) out.push(line(r.a, r.b, r.k));
process.stdout.write(`${out.join('\n')}\n`);
