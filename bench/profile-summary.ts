// Where the time goes in a V8 CPU profile (node --cpu-prof): self time by function and by module,
// so BENCHMARKS.md can say which part of a capture costs what. Usage:
//   node --import tsx bench/profile-summary.ts FILE.cpuprofile [--top N]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { table } from './lib/table';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  functions: Array<{ name: string; where: string; selfMs: number; share: number }>;
  modules: Array<{ module: string; selfMs: number; share: number }>;
}

/** Folds a file URL into the part of the system it belongs to. */
function moduleOf(url: string, fn: string): string {
  if (url === '') {
    if (fn === '(garbage collector)') return '(garbage collector)';
    if (fn === '(idle)' || fn === '(program)') return fn;
    return '(native: V8 builtins, better-sqlite3, crypto)';
  }
  // The desk's own code, bundled (out/main, or the benchmark's esbuild bundle).
  if (/out\/main\/|wager-desk-bench\/cli-\d+\.mjs/.test(url)) return 'desk (bundled)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return `npm:${nm[1]}`;
  const src = /(src-main\/[^/]+\/[^/]+)/.exec(url);
  if (src) return src[1]!.replace(/\.ts$/, '');
  if (url.startsWith('node:')) {
    const m = /^node:(?:internal\/)?([^/]+)/.exec(url);
    return `node:${m?.[1] ?? url}`;
  }
  return url.replace(/^file:\/\//, '');
}

export function summarize(profile: Profile, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const fnTotals = new Map<string, { name: string; where: string; selfMs: number }>();
  const modTotals = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    total += ms;
    if (functionName === '(idle)') idle += ms;
    const name = functionName || '(anonymous)';
    const where = url ? `${url.replace(/^.*\/(src-main|node_modules|out)\//, '$1/').replace(/^file:\/\//, '')}:${lineNumber + 1}` : '';
    const key = `${name}@${where}`;
    const entry = fnTotals.get(key) ?? { name, where, selfMs: 0 };
    entry.selfMs += ms;
    fnTotals.set(key, entry);
    const mod = moduleOf(url, functionName);
    modTotals.set(mod, (modTotals.get(mod) ?? 0) + ms);
  }
  const busy = Math.max(1e-9, total - idle);
  return {
    totalMs: total,
    idleMs: idle,
    functions: [...fnTotals.values()]
      .filter((f) => f.name !== '(idle)')
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, top)
      .map((f) => ({ ...f, share: f.selfMs / busy })),
    modules: [...modTotals.entries()]
      .filter(([m]) => m !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .map(([module, selfMs]) => ({ module, selfMs, share: selfMs / busy })),
  };
}

export function formatSummary(s: ProfileSummary): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  return [
    `profile: ${(s.totalMs / 1000).toFixed(1)} s sampled, ${(s.idleMs / 1000).toFixed(1)} s idle; shares below are of the busy time`,
    '',
    table(
      ['module', 'self ms', 'share'],
      s.modules.slice(0, 20).map((m) => [m.module, m.selfMs.toFixed(0), pct(m.share)]),
    ),
    '',
    table(
      ['function', 'where', 'self ms', 'share'],
      s.functions.map((f) => [f.name, f.where, f.selfMs.toFixed(0), pct(f.share)]),
    ),
  ].join('\n');
}

/** For each folder of profiles under dir (one per serve process), the largest profile (the main thread's), summarized. */
export function summarizeProfiles(dir: string, top = 15): string {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const files = readdirSync(join(dir, entry.name))
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(dir, entry.name, f))
      .sort((a, b) => statSync(b).size - statSync(a).size);
    if (files[0]) out.push(`-- ${entry.name}: ${files[0]}`, formatSummary(summarize(JSON.parse(readFileSync(files[0], 'utf8')) as Profile, top)), '');
  }
  return out.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node --import tsx bench/profile-summary.ts FILE.cpuprofile [--top N]\n');
    process.exit(2);
  }
  const topAt = process.argv.indexOf('--top');
  const top = topAt > 0 ? Number(process.argv[topAt + 1]) : 25;
  process.stdout.write(`${formatSummary(summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, top))}\n`);
}
