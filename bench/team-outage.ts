// Benchmark: PostgreSQL stopped under load. One `serve --database URL` forwards a steady stream of
// distinct signed pays (each its own deposit) while the database is stopped for --outage-seconds and
// started again. Counted afterwards: every answer the callers got, by status, and every 2XX's deposit
// looked up in the log. The promise is that no 2XX is without its row; a 503 is what the platform sees
// while the database is away, and the proxy carries on by itself once it is back.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { deskCommand, startServe } from './lib/desk-cli';
import { BENCH_SECRET } from './lib/exchange-rows';
import { signedPay } from './lib/payload';
import { startBenchPostgres } from './lib/postgres';
import { fmtInt, fmtMs, percentile } from './lib/stats';
import { startUpstream } from './lib/upstream';

export interface OutageOptions {
  scratch: string;
  fromSource: boolean;
  /** Callers sending one request after another. */
  callers: number;
  /** Load before the stop, the stop itself, and load after the start. */
  beforeMs: number;
  outageMs: number;
  afterMs: number;
  log: (line: string) => void;
}

export interface OutageResult {
  sent: number;
  byStatus: Record<string, number>;
  /** 2XX answers whose deposit has no row: must be 0. */
  acknowledgedWithoutRow: number;
  /** Requests the upstream served beyond the rows in the log: must be 0. */
  forwardedWithoutRow: number;
  /** From the database's start to the first 2XX after it. */
  recoveryMs: number | null;
  ok: boolean;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runOutageBench(o: OutageOptions): Promise<OutageResult> {
  const desk = await deskCommand(o.fromSource);
  const server = await startBenchPostgres();
  if (server.outage === null) {
    await server.stop();
    throw new Error('team-outage stops the server: it needs the embedded one (unset WAGER_DESK_BENCH_DATABASE_URL)');
  }
  const upstreamServer = startUpstream();
  try {
    const upstream = await upstreamServer.url;
    const url = await server.newDatabase();
    const home = join(o.scratch, 'team-outage');
    mkdirSync(home, { recursive: true });
    const serve = await startServe(desk, { home, upstream, secret: BENCH_SECRET, ui: false, database: url });
    o.log(`PostgreSQL: ${server.label}; serve --database, forward mode; ${o.callers} callers, one request after another each`);
    const answers: Array<{ deposit: string; status: number | 'no answer'; at: number; ms: number }> = [];
    let n = 0;
    let stopping = false;
    const started = performance.now();
    const caller = async (c: number): Promise<void> => {
      while (!stopping) {
        const deposit = `outage-${c}-${n++}`;
        const pay = signedPay(`outage-user-${c}`, deposit);
        const t0 = performance.now();
        const status = await fetch(`${serve.proxyUrl}${pay.path}`, { method: 'POST', headers: pay.headers, body: pay.body }).then(
          async (r) => (await r.arrayBuffer(), r.status),
          () => 'no answer' as const,
        );
        answers.push({ deposit, status, at: performance.now() - started, ms: performance.now() - t0 });
      }
    };
    const callers = Array.from({ length: o.callers }, (_, c) => caller(c));
    await sleep(o.beforeMs);
    const downAt = performance.now() - started;
    await server.outage.down();
    o.log(`PostgreSQL stopped at ${fmtMs(downAt)}`);
    await sleep(o.outageMs);
    await server.outage.up();
    const upAt = performance.now() - started;
    o.log(`PostgreSQL started again at ${fmtMs(upAt)}`);
    await sleep(o.afterMs);
    stopping = true;
    await Promise.all(callers);
    await serve.child.stop();

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const stored = new Set(
      (await client.query<{ deposit_id: string }>('SELECT deposit_id FROM exchanges WHERE deposit_id IS NOT NULL')).rows.map((r) => r.deposit_id),
    );
    await client.end();
    const served = ((await (await fetch(new URL('/__bench/count', upstream))).json()) as { served: number }).served;
    const byStatus: Record<string, number> = {};
    for (const a of answers) byStatus[String(a.status)] = (byStatus[String(a.status)] ?? 0) + 1;
    const acknowledged = answers.filter((a) => typeof a.status === 'number' && a.status >= 200 && a.status < 300);
    const acknowledgedWithoutRow = acknowledged.filter((a) => !stored.has(a.deposit)).length;
    // The upstream counts what it served: never more than the rows (a row commits before its forward).
    const forwardedWithoutRow = Math.max(0, served - stored.size);
    const firstAfter = acknowledged.filter((a) => a.at - a.ms > upAt).sort((x, y) => x.at - y.at)[0];
    const recoveryMs = firstAfter ? firstAfter.at - upAt : null;
    const during = answers.filter((a) => a.at > downAt && a.at - a.ms < upAt);
    o.log(
      `answers: ${fmtInt(answers.length)} (${Object.entries(byStatus)
        .map(([k, v]) => `${k}: ${fmtInt(v)}`)
        .join(', ')}); during the outage ${fmtInt(during.length)}, p50 ${fmtMs(
        percentile(
          during.map((a) => a.ms),
          50,
        ),
      )}, p99 ${fmtMs(
        percentile(
          during.map((a) => a.ms),
          99,
        ),
      )}`,
    );
    o.log(
      `2XX without a row: ${acknowledgedWithoutRow}; rows ${fmtInt(stored.size)}, upstream served ${fmtInt(served)} (more than the rows: ${forwardedWithoutRow})`,
    );
    o.log(`first 2XX after the start: ${recoveryMs === null ? 'none' : `${fmtMs(recoveryMs)} after it`}`);
    const ok = acknowledgedWithoutRow === 0 && forwardedWithoutRow === 0 && recoveryMs !== null;
    await server.dropDatabase(url);
    return { sent: answers.length, byStatus, acknowledgedWithoutRow, forwardedWithoutRow, recoveryMs, ok };
  } finally {
    await upstreamServer.child.stop();
    await server.stop();
  }
}
