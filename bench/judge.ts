// Benchmark 6: what judging one hostile body costs, and what it costs everyone else. The proxy judges each
// capture on its event loop (signature check, diagnosis on a mismatch, parsing, inspection, duplicate-key
// search), so a body built to make that work large stalls every other request. Two parts, each against a
// plain valid 1 MB callback measured in the same run:
//   judge     the judge alone, in this process (checkSignature + inspectCapture, as the proxy's inbound
//             pipeline calls them), with a wrong signature so that the diagnosis runs too; the size of the
//             findings and diagnosis it would store
//   latency   a small signed pay sent through the real proxy (a desk on port 0, sandbox mode) at the same
//             moment as the hostile body: its latency, against the same pay sent alone
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { createDesk } from '../src-main/core/desk';
import { inspectCapture } from '../src-main/core/protocol';
import { checkSignature, sign } from '../src-main/core/signing';
import { fmtBytes, fmtMs, fmtRatio, percentile, ratio } from './lib/stats';
import { table } from './lib/table';

const SECRET = 'judge-bench-secret';
const MB = 1_000_000;
const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');

export interface JudgeShape {
  name: string;
  body: Buffer;
}

/** About 1 MB each: a plain callback (the baseline) and the shapes a hostile sender would choose. */
export function shapes(): JudgeShape[] {
  const pad = (s: string): Buffer => utf8(s.length >= MB ? s : s.replace(/}$/, `${' '.repeat(MB - s.length)}}`));
  const items = Array.from({ length: 12_000 }, (_, i) => `{"round":${i},"gameId":"g-${i}","score":${i % 97},"at":"2026-01-01T00:00:00Z"}`);
  return [
    { name: 'plain valid (baseline)', body: pad(`{"userId":"u-1","depositId":"d-1","currency":"USD","amount":1.5,"rounds":[${items.join(',')}]}`) },
    { name: 'deep (500,000 levels)', body: pad(`{"userId":"u","x":${'['.repeat(500_000)}${']'.repeat(500_000)}}`) },
    // The body, 61 arrays, the array of items and the items: 64 levels, the deepest the judge parses.
    { name: 'deep (64 levels, the limit)', body: pad(`{"userId":"u","x":${'['.repeat(61)}[${items.join(',')}]${']'.repeat(61)}}`) },
    { name: 'wide (90,000 keys)', body: pad(`{"userId":"u",${Array.from({ length: 90_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`) },
    { name: 'nested arrays, duplicate keys', body: pad(`{"userId":"u","x":${'['.repeat(250_000)}{"a":1,"a":2}${']'.repeat(250_000)}}`) },
    { name: 'duplicate keys (75,000 objects)', body: pad(`{"userId":"u","x":[${Array.from({ length: 75_000 }, () => '{"k":1,"k":2}').join(',')}]}`) },
    { name: 'huge string in a key field', body: pad(`{"userId":" ${'u'.repeat(MB - 80)} ","depositId":"d","currency":"USD","amount":1}`) },
    { name: 'invalid UTF-8', body: Buffer.concat([utf8('{"userId":"'), Buffer.alloc(MB - 20, 0xc0), utf8('"}')]) },
  ];
}

export interface JudgeRow {
  shape: string;
  bytes: number;
  /** Median time of one judgment, ms. */
  judgeMs: number;
  judgeRatio: number | null;
  /** Findings and diagnosis as stored (JSON), bytes. */
  storedBytes: number;
  /** Median latency of a small pay sent alongside this body, ms. */
  otherMs: number;
  otherRatio: number | null;
}

export interface JudgeBenchResult {
  rows: JudgeRow[];
  /** Median latency of the small pay sent alone, ms. */
  aloneMs: number;
  allAnswered: boolean;
}

function judgeOnce(body: Buffer): { ms: number; storedBytes: number } {
  const started = performance.now();
  const signature = checkSignature(body, 'f'.repeat(64), [
    { profile: 'p', secret: SECRET, primary: true },
    { profile: 'q', secret: 'other' },
  ]);
  const { findings } = inspectCapture('pay', body);
  const ms = performance.now() - started;
  return { ms, storedBytes: JSON.stringify(findings).length + JSON.stringify(signature.diagnosis).length };
}

function post(port: number, body: Buffer, headers: Record<string, string>): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/platform/pay', method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function runJudgeBench(options: { quick: boolean; log: (line: string) => void }): Promise<JudgeBenchResult> {
  const iterations = options.quick ? 3 : 15;
  const all = shapes();
  for (const s of all) judgeOnce(s.body); // warm up the JIT on every shape

  const judged = all.map((s) => {
    const runs = Array.from({ length: iterations }, () => judgeOnce(s.body));
    return {
      shape: s,
      ms: percentile(
        runs.map((r) => r.ms),
        50,
      ),
      storedBytes: runs[0]!.storedBytes,
    };
  });

  const home = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'wager-desk-judge-'));
  const desk = createDesk({ home, maxBodyBytes: 2 * MB });
  let allAnswered = true;
  const latencies = new Map<string, number>();
  let aloneMs = 0;
  try {
    await desk.saveProfile({ name: 'p', secret: SECRET });
    const started = await desk.startProxy({ port: 0, upstream: null });
    if (!started.ok) throw new Error(started.error.message);
    const status = started.value.proxy;
    const port = status.port!;
    let n = 0;
    const smallPay = async (): Promise<number> => {
      const body = utf8(JSON.stringify({ userId: 'u-small', depositId: `small-${++n}`, currency: 'USD', amount: 1 }));
      const r = await post(port, body, { 'content-type': 'application/json', 'x-server-authorization': sign(body, SECRET) });
      if (r.status !== 200) allAnswered = false;
      return r.ms;
    };
    for (let i = 0; i < 5; i++) await smallPay();
    aloneMs = percentile(await sequential(iterations * 2, smallPay), 50);
    for (const s of all) {
      const samples = await sequential(iterations, async () => {
        const hostile = post(port, s.body, { 'content-type': 'application/json', 'x-server-authorization': 'f'.repeat(64) });
        // Sent once the hostile body is on its way: the proxy reads both at once and judges each in turn.
        const ms = await smallPay();
        const h = await hostile;
        if (h.status === 0) allAnswered = false;
        return ms;
      });
      latencies.set(s.name, percentile(samples, 50));
    }
  } finally {
    await desk.close();
    rmSync(home, { recursive: true, force: true });
  }

  const base = judged[0]!;
  const rows = judged.map((j) => ({
    shape: j.shape.name,
    bytes: j.shape.body.length,
    judgeMs: j.ms,
    judgeRatio: ratio(j.ms, base.ms),
    storedBytes: j.storedBytes,
    otherMs: latencies.get(j.shape.name) ?? 0,
    otherRatio: ratio(latencies.get(j.shape.name), latencies.get(base.shape.name)),
  }));
  return { rows, aloneMs, allAnswered };
}

async function sequential(count: number, fn: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(await fn());
  return out;
}

export function formatJudgeResult(r: JudgeBenchResult): string {
  const rows = r.rows.map((x) => [
    x.shape,
    fmtBytes(x.bytes),
    fmtMs(x.judgeMs),
    fmtRatio(x.judgeRatio),
    fmtBytes(x.storedBytes),
    fmtMs(x.otherMs),
    fmtRatio(x.otherRatio),
  ]);
  return [
    table(['body (wrong signature)', 'size', 'judge', 'vs plain', 'findings+diagnosis', 'other request', 'vs plain'], rows),
    `a small signed pay alone: ${fmtMs(r.aloneMs)} (median); every request answered: ${r.allAnswered ? 'yes' : 'NO'}`,
  ].join('\n');
}
