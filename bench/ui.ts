// Benchmark 4: the web UI in Chromium over a log of many captures. Time to the first rendered page of
// the capture list (fresh page each time, in-page clock from navigation start), then frame times while
// the list is scrolled programmatically (requestAnimationFrame deltas), next to the same page's idle
// frame cadence measured in the same run (the floor a headless, GPU-less Chromium gives).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { BenchArgs } from './lib/args';
import { startChild } from './lib/child';
import { ROOT } from './lib/desk-cli';
import { rendererDir } from './lib/renderer';
import { fmtInt, fmtMs, fmtRatio, percentile, ratio } from './lib/stats';
import { table } from './lib/table';
import { connectionOf, openStore } from '../src-main/core/store/sqlite';
import { fillExchanges } from './store';
import { launchChromium } from '../test/e2e/helpers/browser';

const ROW_HEIGHT = 34; // src-renderer/features/captures/CaptureRow.tsx
const FRAME_60 = 1000 / 60;

export interface FrameStats {
  name: string;
  frames: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  fps: number;
  /** Share of frames longer than 1.5 x 16.7 ms (a missed 60 Hz frame). */
  slowShare: number;
  rowsLoaded: number;
  rowsPassed: number;
}

export interface UiBenchResult {
  rows: number;
  renderer: string;
  firstRow: { loads: number; domP50: number; paintedP50: number; paintedMax: number; fcpP50: number | null };
  scroll: FrameStats[];
  idle: FrameStats;
  countsText: string;
  /** Inbound rows in the database (what the list and its count show). */
  captured: number;
  heapBytes: number | null;
  allShown: boolean;
}

export interface UiBenchOptions extends BenchArgs {
  scratch: string;
  log(line: string): void;
}

// Page-side code is passed as strings: this project's Node typecheck has no DOM types.
const FIRST_ROW_PROBE = `(() => {
  window.__firstRow = null;
  window.__firstRowPainted = null;
  const look = () => {
    if (window.__firstRow !== null) return;
    if (document.querySelector('[data-testid="capture-row"]')) {
      window.__firstRow = performance.now();
      requestAnimationFrame(() => { window.__firstRowPainted = performance.now(); });
    }
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true });
})()`;

/** Records frame deltas over `frames` frames, scrolling stepPx a frame (negative: up); with untilLoaded, stops once that many rows are in the list. */
function recorder(frames: number, stepPx: number, maxMs: number, untilLoaded = 0): string {
  return `new Promise((resolve) => {
    const el = document.querySelector('[data-testid="capture-list"]');
    const deltas = [];
    const start = performance.now();
    const top0 = el.scrollTop;
    let last = null;
    let n = 0;
    const tick = (t) => {
      if (last !== null) deltas.push(t - last);
      last = t;
      if (${stepPx} !== 0) el.scrollTop += ${stepPx};
      // At least one frame is measured: a quick run's flick may already have paged every row in.
      const done = ${untilLoaded} > 0 && n > 0 && Number(el.dataset.count) >= ${untilLoaded};
      if (++n > ${frames} || done || performance.now() - start > ${maxMs}) {
        resolve({ deltas, passed: Math.round(Math.abs(el.scrollTop - top0) / ${ROW_HEIGHT}), loaded: Number(el.dataset.count) });
      } else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })`;
}

function frameStats(name: string, r: { deltas: number[]; passed: number; loaded: number }): FrameStats {
  const d = r.deltas;
  const mean = d.reduce((a, b) => a + b, 0) / Math.max(1, d.length);
  return {
    name,
    frames: d.length,
    p50: percentile(d, 50),
    p95: percentile(d, 95),
    p99: percentile(d, 99),
    max: Math.max(0, ...d),
    fps: mean > 0 ? 1000 / mean : 0,
    slowShare: d.filter((x) => x > FRAME_60 * 1.5).length / Math.max(1, d.length),
    rowsLoaded: r.loaded,
    rowsPassed: r.passed,
  };
}

async function firstRowOnce(browser: Browser, url: string): Promise<{ dom: number; painted: number; fcp: number | null }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.addInitScript(FIRST_ROW_PROBE);
    await page.goto(url);
    // A function, not a string: the page's CSP forbids eval, and a string predicate is eval'd in the page.
    await page.waitForFunction(() => (globalThis as unknown as { __firstRowPainted: number | null }).__firstRowPainted !== null, undefined, {
      timeout: 30_000,
    });
    return (await page.evaluate(`({
      dom: window.__firstRow,
      painted: window.__firstRowPainted,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    })`)) as { dom: number; painted: number; fcp: number | null };
  } finally {
    await context.close();
  }
}

export async function runUiBench(o: UiBenchOptions): Promise<UiBenchResult> {
  const home = join(o.scratch, 'ui');
  mkdirSync(home, { recursive: true });
  const store = openStore(home);
  let inbound: { n: number; newest: number };
  try {
    o.log(`  filling ${fmtInt(o.uiRows)} exchanges...`);
    fillExchanges(store, o.uiRows, o.log);
    // The list shows captured (inbound) rows; a few generated rows are replays (outbound).
    inbound = connectionOf(store).prepare(`SELECT count(*) AS n, max(id) AS newest FROM exchanges WHERE direction = 'inbound'`).get() as {
      n: number;
      newest: number;
    };
  } finally {
    store.close();
  }
  const renderer = await rendererDir(o.scratch);
  const server = startChild(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/servers/web-ui.ts'), home, renderer.dir], { cwd: ROOT });
  let browser: Browser | null = null;
  try {
    const url = (await server.waitFor(/^ui: (\S+)$/m, 60_000))[1]!;
    browser = await launchChromium();
    const loads = o.quick ? 2 : 7;
    const firsts: Array<{ dom: number; painted: number; fcp: number | null }> = [];
    for (let i = 0; i < loads; i++) firsts.push(await firstRowOnce(browser, url));
    o.log(`  first row painted at ${firsts.map((f) => f.painted.toFixed(0)).join(', ')} ms after navigation start`);

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page: Page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(url);
    await page.getByTestId('capture-row').first().waitFor();
    const expected = `${inbound.n.toLocaleString('en-US')} captured`;
    await page
      .getByTestId('counts')
      .getByText(expected)
      .waitFor({ timeout: 30_000 })
      .catch(() => undefined);
    const countsText = ((await page.getByTestId('counts').textContent()) ?? '').trim();
    const firstId = Number(await page.getByTestId('capture-row').first().getAttribute('data-id'));

    const frames = o.quick ? 60 : 600;
    const idle = frameStats('idle (no scrolling)', (await page.evaluate(recorder(Math.min(frames, 240), 0, 20_000))) as never);
    const steady = frameStats('steady scroll, 5 rows a frame', (await page.evaluate(recorder(frames, 5 * ROW_HEIGHT, 60_000))) as never);
    const flick = frameStats('fast flick, 3 screens a frame', (await page.evaluate(recorder(Math.floor(frames / 2), 3 * 900, 60_000))) as never);
    // Down to the oldest row, paging everything in (the list then holds every row), then scroll back up there.
    const toEnd = frameStats(
      'run to the end, 10 screens a frame',
      (await page.evaluate(recorder(o.quick ? 200 : 5_000, 10 * 900, o.quick ? 20_000 : 120_000, inbound.n))) as never,
    );
    const allLoaded = frameStats(`steady scroll up, all rows loaded`, (await page.evaluate(recorder(frames, -5 * ROW_HEIGHT, 60_000))) as never);
    const heapBytes = (await page.evaluate('performance.memory ? performance.memory.usedJSHeapSize : null')) as number | null;
    await context.close();
    return {
      rows: o.uiRows,
      renderer: renderer.label,
      firstRow: {
        loads,
        domP50: percentile(
          firsts.map((f) => f.dom),
          50,
        ),
        paintedP50: percentile(
          firsts.map((f) => f.painted),
          50,
        ),
        paintedMax: Math.max(...firsts.map((f) => f.painted)),
        fcpP50: firsts.some((f) => f.fcp !== null)
          ? percentile(
              firsts.flatMap((f) => (f.fcp === null ? [] : [f.fcp])),
              50,
            )
          : null,
      },
      scroll: [steady, flick, toEnd, allLoaded],
      idle,
      countsText,
      heapBytes,
      captured: inbound.n,
      allShown: countsText.includes(expected) && firstId === inbound.newest && steady.rowsLoaded > 0,
    };
  } finally {
    await browser?.close();
    await server.stop();
  }
}

export function formatUiResult(r: UiBenchResult): string {
  const f = r.firstRow;
  const rows = [r.idle, ...r.scroll].map((s) => [
    s.name,
    fmtInt(s.frames),
    s.fps.toFixed(1),
    fmtMs(s.p50),
    fmtMs(s.p95),
    fmtMs(s.p99),
    fmtMs(s.max),
    `${(s.slowShare * 100).toFixed(1)}%`,
    fmtRatio(ratio(s.p95, r.idle.p95)),
    fmtInt(s.rowsPassed),
    fmtInt(s.rowsLoaded),
  ]);
  return [
    `renderer: ${r.renderer}`,
    `first rendered page (${f.loads} fresh loads, from navigation start): row in DOM p50 ${fmtMs(f.domP50)}, painted p50 ${fmtMs(f.paintedP50)} (max ${fmtMs(f.paintedMax)}); first contentful paint p50 ${fmtMs(f.fcpP50)}`,
    '',
    table(['frames', 'count', 'fps', 'p50', 'p95', 'p99', 'max', '> 25 ms', 'p95 vs idle', 'rows passed', 'rows loaded'], rows),
    '',
    `JS heap after scrolling: ${r.heapBytes === null ? '-' : `${(r.heapBytes / 1024 / 1024).toFixed(1)} MiB`}`,
    `rows check ui: status bar says "${r.countsText}", newest row first: ${r.allShown ? 'ok' : 'MISMATCH'}`,
  ].join('\n');
}
