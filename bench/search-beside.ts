// The promise that a person's reads never delay a capture: callbacks at a fixed rate into a desk whose
// SQLite log holds `rows` rows, once alone and once beside a UI that searches without pause (a search
// that walks the whole log: a word every row holds, among the `valid` rows, which none is). Prints the
// callbacks' p50 and p99 both ways, the difference, and whether every callback has its row. The load
// generator runs in the desk's process (its event loop is the proxy's): what it measures is whether the
// searches, on their reading threads, hold that loop.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDesk } from '../src-main/core/desk';
import { storeOf } from '../src-main/core/desk/seams';
import { SLOW_SEARCH as SEARCH, slowSearchRow as row } from '../test/helpers/slow-search-log';
import { fmtMs, percentile } from './lib/stats';
import { table } from './lib/table';

export interface SearchBesideResult {
  rows: number;
  rate: number;
  seconds: number;
  alone: { p50: number; p99: number; sent: number };
  beside: { p50: number; p99: number; sent: number; searches: number; searchMs: number };
  allRecorded: boolean;
}

/** Callbacks at `rate` a second for `seconds`, each timed to its answer; their deposit ids. */
async function pacedCallbacks(url: string, rate: number, seconds: number, tag: string): Promise<{ ms: number[]; ids: string[] }> {
  const ms: number[] = [];
  const ids: string[] = [];
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const depositId = `${tag}-${i}`;
    ids.push(depositId);
    // Timed from when it was due: a callback held behind a stalled loop counts its wait.
    sends.push(
      fetch(`${url}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"depositId":"${depositId}","userId":"u","amount":1,"currency":"USD"}`,
      })
        .then((r) => r.arrayBuffer())
        .then(() => void ms.push(performance.now() - due)),
    );
  }
  await Promise.all(sends);
  return { ms, ids };
}

export async function runSearchBesideBench(o: { rows: number; rate: number; seconds: number; log: (line: string) => void }): Promise<SearchBesideResult> {
  const home = mkdtempSync(join(tmpdir(), 'wager-desk-search-beside-'));
  const desk = createDesk({ home });
  try {
    const store = storeOf(desk);
    for (let done = 0; done < o.rows;) {
      const n = Math.min(50_000, o.rows - done);
      store.immediate(() => {
        for (let i = 0; i < n; i++) store.exchanges.record(row(done + i));
      });
      done += n;
    }
    o.log(`filled ${o.rows.toLocaleString('en-US')} rows`);
    const status = await desk.startProxy({ port: 0 });
    if (!status.ok) throw new Error(status.error.message);
    const url = status.value.proxy.url!;
    await pacedCallbacks(url, o.rate, 1, 'warm');
    const alone = await pacedCallbacks(url, o.rate, o.seconds, 'alone');
    let searching = true;
    let searches = 0;
    let searchMs = 0;
    const ui = (async () => {
      while (searching) {
        const t0 = performance.now();
        await desk.listExchanges(SEARCH);
        searchMs += performance.now() - t0;
        searches++;
      }
    })();
    const beside = await pacedCallbacks(url, o.rate, o.seconds, 'beside');
    searching = false;
    await ui;
    let recorded = true;
    for (const id of [...alone.ids, ...beside.ids]) {
      const page = await desk.listExchanges({ depositId: id, allProfiles: true });
      if (!page.ok || page.value.items.length !== 1) recorded = false;
    }
    return {
      rows: o.rows,
      rate: o.rate,
      seconds: o.seconds,
      alone: { p50: percentile(alone.ms, 50), p99: percentile(alone.ms, 99), sent: alone.ms.length },
      beside: {
        p50: percentile(beside.ms, 50),
        p99: percentile(beside.ms, 99),
        sent: beside.ms.length,
        searches,
        searchMs: searches ? searchMs / searches : 0,
      },
      allRecorded: recorded,
    };
  } finally {
    await desk.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export function formatSearchBesideResult(r: SearchBesideResult): string {
  return [
    table(
      ['callbacks', 'sent', 'p50', 'p99'],
      [
        ['alone', String(r.alone.sent), fmtMs(r.alone.p50), fmtMs(r.alone.p99)],
        [
          `beside a searching UI (${r.beside.searches} searches, ${fmtMs(r.beside.searchMs)} each)`,
          String(r.beside.sent),
          fmtMs(r.beside.p50),
          fmtMs(r.beside.p99),
        ],
      ],
    ),
    `p99 difference: ${fmtMs(r.beside.p99 - r.alone.p99)} (${(r.beside.p99 / r.alone.p99).toFixed(2)}x) at ${r.rate}/s over ${r.seconds} s, ${r.rows.toLocaleString('en-US')} rows; every callback has its row: ${r.allRecorded ? 'yes' : 'NO'}`,
  ].join('\n');
}
