// The conformance check's duration against an operator that answers in 20 ms (the Node stand-in wallet
// of the tests, with a balance probe), split into its sequential parts and its concurrent parts (the
// duplicate.concurrent.* checks, whose copies go out at once). Rounds alternate two concurrencies, so
// that the ratio between them is measured under the same load; absolute times move with the machine.
// node --import tsx bench/check-matrix.ts [--rounds N] [--latency-ms N]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDesk } from '../src-main/core/desk';
import { useBalanceObserver } from '../src-main/core/desk/seams';
import type { CheckResult } from '../src-main/shared/model';
import { startWallet } from '../test/fixtures/operators/node-wallet';
import { probeObserver } from '../test/helpers/balance-observers';

const SECRET = 'bench-check-secret';
const USER = 'bench-user';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

interface Round {
  concurrency: number;
  totalMs: number;
  sequentialMs: number;
  sequentialRequests: number;
  concurrentMs: number;
  concurrentRequests: number;
  checks: number;
}

async function round(url: string, concurrency: number): Promise<Round> {
  const home = mkdtempSync(join(tmpdir(), 'wd-bench-check-'));
  const desk = createDesk({ home });
  try {
    await desk.saveProfile({ name: 'acme', secret: SECRET, callbackPrefix: '/acme' });
    useBalanceObserver(desk, probeObserver(url));
    // Each check's time is from the previous result to its own: the answer's result and the money's
    // come together, so the money's adds nothing.
    const times: Array<{ result: CheckResult; ms: number }> = [];
    let last = performance.now();
    desk.on((name, payload) => {
      if (name !== 'check-progress') return;
      const now = performance.now();
      times.push({ result: (payload as { result: CheckResult }).result, ms: now - last });
      last = now;
    });
    const started = performance.now();
    last = started;
    const res = await desk.runCheck({ to: url, userId: USER, concurrency });
    if (!res.ok) throw new Error(res.error.message);
    if (res.value.failed > 0 || res.value.notObservable > 0) throw new Error(`the correct wallet did not pass: ${res.value.headline ?? ''}`);
    const totalMs = performance.now() - started;
    const concurrent = times.filter((t) => t.result.id.startsWith('duplicate.concurrent.'));
    const sequential = times.filter((t) => !t.result.id.startsWith('duplicate.concurrent.'));
    const requests = (ts: typeof times) => ts.filter((t) => !t.result.id.endsWith('.money')).reduce((n, t) => n + t.result.exchangeIds.length, 0);
    return {
      concurrency,
      totalMs,
      sequentialMs: sequential.reduce((s, t) => s + t.ms, 0),
      sequentialRequests: requests(sequential),
      concurrentMs: concurrent.reduce((s, t) => s + t.ms, 0),
      concurrentRequests: requests(concurrent),
      checks: res.value.checks.length,
    };
  } finally {
    await desk.close();
    rmSync(home, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const rounds = arg('--rounds', 3);
  const latencyMs = arg('--latency-ms', 20);
  const wallet = await startWallet({ secret: SECRET, prefix: '/acme', users: { [USER]: 1_000_000_000 }, latencyMs });
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(`check against a wallet answering in ${latencyMs} ms; load average at start ${load()}`);
  const results: Round[] = [];
  try {
    for (let i = 0; i < rounds; i++) for (const c of [5, 10]) results.push(await round(wallet.url, c));
  } finally {
    await wallet.close();
  }
  console.log('round  conc  checks  total ms  sequential ms (requests, ms/request)  concurrent ms (requests, ms/request)');
  for (const [i, r] of results.entries()) {
    console.log(
      `${String(Math.floor(i / 2) + 1).padStart(5)}  ${String(r.concurrency).padStart(4)}  ${String(r.checks).padStart(6)}  ${r.totalMs.toFixed(0).padStart(8)}  ` +
        `${r.sequentialMs.toFixed(0).padStart(13)} (${r.sequentialRequests}, ${(r.sequentialMs / r.sequentialRequests).toFixed(1)})  ` +
        `${r.concurrentMs.toFixed(0).padStart(13)} (${r.concurrentRequests}, ${(r.concurrentMs / r.concurrentRequests).toFixed(1)})`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const c of [5, 10]) {
    const rs = results.filter((r) => r.concurrency === c);
    const seqPerReq = median(rs.map((r) => r.sequentialMs / r.sequentialRequests));
    const concPerReq = median(rs.map((r) => r.concurrentMs / r.concurrentRequests));
    console.log(
      `concurrency ${c}: median total ${median(rs.map((r) => r.totalMs)).toFixed(0)} ms; concurrent part ${median(rs.map((r) => r.concurrentMs)).toFixed(0)} ms ` +
        `(${(100 * median(rs.map((r) => r.concurrentMs / r.totalMs))).toFixed(1)}% of the run); ms per request: sequential ${seqPerReq.toFixed(1)}, concurrent ${concPerReq.toFixed(1)} (ratio ${(concPerReq / seqPerReq).toFixed(2)})`,
    );
  }
  console.log(`load average at end ${load()}`);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
