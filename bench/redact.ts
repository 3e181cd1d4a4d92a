// The redaction a capture costs: what the proxy redacts of one request and its answer (method, headers,
// path, query, body; the answer's headers and body), with three stored secrets, timed for this tree's
// src-main/core/redact/index.ts and, side by side in alternating rounds, for another tree's (a baseline):
//
//   node --import tsx bench/redact.ts [--baseline OTHER_TREE/src-main/core/redact/index.ts] [--rounds 7] [--ms 400]
//
// Each round runs every shape for `--ms` milliseconds on each module in turn (the order alternates), so a
// contended CPU slows both alike; the table shows medians over the rounds and the ratio new/baseline.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { HeaderList } from '../src-main/shared/model';
import { table } from './lib/table';

interface RedactModule {
  redactHeaders(headers: HeaderList, secrets: readonly string[]): HeaderList;
  redactUrlPart(text: string, secrets: readonly string[]): string;
  redactBytes(bytes: Uint8Array, secrets: readonly string[]): { bytes: Uint8Array };
  redactText(text: string, secrets: readonly string[]): string;
}

const SECRETS = ['bench-sign/Q7v2X9pL4mK8+nB3', 'bench-prev-R5tY1uI0oP9aS8d', 'bench-apik-Z3x5C7v9B1n2M4'];

interface Shape {
  name: string;
  headers: HeaderList;
  path: string;
  query: string;
  body: Buffer;
  answerHeaders: HeaderList;
  answer: Buffer;
}

function shape(name: string, body: Buffer, answer: Buffer): Shape {
  return {
    name,
    headers: [
      ['Host', '127.0.0.1:8080'],
      ['User-Agent', 'platform-callbacks/2.3'],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(body.length)],
      ['Accept', 'application/json'],
      ['x-server-authorization', 'b1946ac92492d2347c6235b4d2611184d7c1f1e5b2a8a6f0c0e3d1f9a8b7c6d5'],
      ['x-request-id', '0d9c1e2f-7a44-4b1f-9a3e-0c5b7d9e1f2a'],
      ['Connection', 'keep-alive'],
    ],
    path: '/platform/pay',
    query: '',
    body,
    answerHeaders: [
      ['content-type', 'application/json'],
      ['content-length', String(answer.length)],
      ['date', 'Thu, 26 Nov 2026 06:00:00 GMT'],
    ],
    answer,
  };
}

const pay = Buffer.from(JSON.stringify({ userId: 'u-1042', depositId: 'd-7f3a9c', currency: 'USD', amount: 250, gameId: 'blackjack', tournamentId: null }));
const payAnswer = Buffer.from(JSON.stringify({ status: 'ok', userId: 'u-1042', depositId: 'd-7f3a9c', balance: 9750 }));
const big = Buffer.from(JSON.stringify({ userId: 'u-1', depositId: 'd-1', currency: 'USD', amount: 1, note: 'x'.repeat(1_000_000) }));
const escaped = Buffer.from(`{"userId":"u-1","depositId":"d-1","currency":"USD","amount":1,"note":"${'caf\\u00e9 %41 '.repeat(20)}"}`);

const SHAPES = [
  shape('pay, 160 B (the common case)', pay, payAnswer),
  shape('body with \\u and % escapes', escaped, payAnswer),
  shape('1 MB body', big, payAnswer),
];

function redactCapture(m: RedactModule, s: Shape): number {
  const h = m.redactHeaders(s.headers, SECRETS);
  const p = m.redactUrlPart(s.path, SECRETS);
  const q = m.redactUrlPart(s.query, SECRETS);
  const b = m.redactBytes(s.body, SECRETS);
  const t = m.redactText('POST', SECRETS);
  const ah = m.redactHeaders(s.answerHeaders, SECRETS);
  const ab = m.redactBytes(s.answer, SECRETS);
  return h.length + p.length + q.length + b.bytes.byteLength + t.length + ah.length + ab.bytes.byteLength;
}

/** Microseconds per capture, over `ms` milliseconds of calls. */
function timed(m: RedactModule, s: Shape, ms: number): number {
  let n = 0;
  let sink = 0;
  const start = performance.now();
  const until = start + ms;
  let now = start;
  while (now < until) {
    for (let i = 0; i < 20; i++) sink += redactCapture(m, s);
    n += 20;
    now = performance.now();
  }
  if (sink < 0) throw new Error('unreachable');
  return ((now - start) * 1000) / n;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { baseline: { type: 'string' }, rounds: { type: 'string', default: '7' }, ms: { type: 'string', default: '400' } } });
  const rounds = Number(values.rounds);
  const ms = Number(values.ms);
  const current = (await import('../src-main/core/redact')) as RedactModule;
  const baseline = values.baseline ? ((await import(resolve(values.baseline))) as RedactModule) : null;
  const modules: Array<[string, RedactModule]> = baseline
    ? [
        ['baseline', baseline],
        ['this tree', current],
      ]
    : [['this tree', current]];
  const times = new Map<string, number[]>();
  for (const s of SHAPES) for (const [, m] of modules) timed(m, s, 50); // warm up the JIT
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? modules : [...modules].reverse();
    for (const s of SHAPES) {
      for (const [name, m] of order) {
        const key = `${s.name}|${name}`;
        times.set(key, [...(times.get(key) ?? []), timed(m, s, ms)]);
      }
    }
  }
  const rows = SHAPES.map((s) => {
    const now = median(times.get(`${s.name}|this tree`)!);
    const before = baseline ? median(times.get(`${s.name}|baseline`)!) : null;
    return [s.name, before === null ? '-' : `${before.toFixed(2)} µs`, `${now.toFixed(2)} µs`, before === null ? '-' : `${(now / before).toFixed(2)}x`];
  });
  process.stdout.write(`redaction of one capture and its answer, 3 secrets, median of ${rounds} alternating rounds\n`);
  process.stdout.write(`${table(['shape', 'baseline', 'this tree', 'ratio'], rows)}\n`);
}

void main();
