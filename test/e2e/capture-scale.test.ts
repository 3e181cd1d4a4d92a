// 100,000 captures in the database: the list opens at once, keeps only the visible rows in the page,
// pages in from the database as it scrolls, stays smooth, and still shows new captures live.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import { insertCaptures } from './helpers/bulk';
import { TEST_SECRET, sendCallback, type Stack } from './helpers/stack';

const ROWS = 100_000;

let session: E2eSession;
let stack: Stack;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  session = await openSession({ stepTimeoutMs: 10_000, prepare: (s) => insertCaptures(s.desk, ROWS) });
  ({ stack, page, pageErrors } = session);
}, 180_000);

afterAll(() => session?.close());

const loadedCount = async (): Promise<number> => Number(await page.getByTestId('capture-list').getAttribute('data-count'));
const domRows = (): Promise<number> => page.getByTestId('capture-row').count();

describe('the capture list with 100,000 captures', () => {
  it('opens with the newest first and only the visible rows in the page', async () => {
    await page.goto(stack.ui.url);
    await page.getByTestId('capture-row').first().waitFor();
    expect(await page.getByTestId('capture-row').first().getByTestId('row-deposit').textContent()).toBe(`dep-${ROWS - 1}`);
    expect(await loadedCount()).toBeLessThanOrEqual(400);
    expect(await domRows()).toBeLessThan(60);
    await page.getByTestId('counts').getByText('100,000 captured').waitFor();
  });

  it('pages in from the database as it scrolls, smoothly, with a bounded page', async () => {
    const list = page.getByTestId('capture-list');
    await list.hover();
    // Record the gaps between animation frames while scrolling: a list that rendered every row would
    // freeze for seconds here.
    // (Page-side code as strings: this project's Node typecheck has no DOM types.)
    await page.evaluate(`(() => {
      window.frameTimes = [];
      window.recording = true;
      const tick = (t) => {
        window.frameTimes.push(t);
        if (window.recording) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    })()`);
    for (let i = 0; i < 40; i++) await page.mouse.wheel(0, 3_000);
    await expect.poll(loadedCount, { timeout: 8_000 }).toBeGreaterThanOrEqual(1_000);
    const gaps = await page.evaluate<number[]>(`(() => {
      window.recording = false;
      return window.frameTimes.slice(1).map((t, i) => t - window.frameTimes[i]);
    })()`);
    const sorted = [...gaps].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? Infinity;
    const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? Infinity;
    expect(gaps.length).toBeGreaterThan(10);
    // Generous bounds for a shared two-core machine; rendering all rows would take seconds per frame.
    expect(median).toBeLessThan(50);
    expect(p95).toBeLessThan(250);
    expect(await domRows()).toBeLessThan(60);
    await screenshot(page, '07-hundred-thousand-scrolled');
  });

  it('walks to the end of what is loaded with the keyboard and keeps loading', async () => {
    const before = await loadedCount();
    await page.getByTestId('capture-list').focus();
    await page.keyboard.press('End');
    await expect.poll(loadedCount, { timeout: 8_000 }).toBeGreaterThan(before);
    const selected = page.locator('[data-testid="capture-row"][aria-selected="true"]');
    await selected.waitFor();
    const id = Number(await selected.getAttribute('data-id'));
    expect(id).toBe(ROWS - before + 1);
    expect(await domRows()).toBeLessThan(60);
  });

  it('still shows a new capture live, and finds one deposit among 100,000 by prefix', async () => {
    await page.getByTestId('capture-list').focus();
    await page.keyboard.press('Home');
    const body = JSON.stringify({ userId: 'user-new', depositId: 'dep-live-after-100k', currency: 'EUR', amount: 5 });
    const res = await sendCallback(stack.proxyUrl, '/platform/pay', body, { secret: TEST_SECRET });
    expect(res.status).toBe(200);
    await page.getByTestId('row-deposit').getByText('dep-live-after-100k', { exact: true }).waitFor({ timeout: 2_000 });

    await page.getByTestId('filter-search').fill('dep-9999');
    await expect.poll(loadedCount, { timeout: 8_000 }).toBe(11);
    const deposits = await page.getByTestId('row-deposit').allTextContents();
    expect(deposits[0]).toBe('dep-99999');
    expect(deposits).toContain('dep-9999');
    expect(pageErrors).toEqual([]);
  });

  it('takes a burst of live captures whole and newest first (events gathered per frame)', async () => {
    await page.getByTestId('filter-search').fill('');
    await page.getByTestId('capture-list').focus();
    await page.keyboard.press('Home');
    await expect.poll(async () => (await page.getByTestId('row-deposit').first().textContent()) ?? '', { timeout: 8_000 }).toBe('dep-live-after-100k');
    const before = await loadedCount();
    const BURST = 400;
    // 20 at a time, a user each (the sandbox's balances): 800 events (request, response) in well under a second.
    for (let start = 0; start < BURST; start += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const body = JSON.stringify({ userId: `user-burst-${start + i}`, depositId: `dep-burst-${start + i}`, currency: 'EUR', amount: 5 });
          const res = await sendCallback(stack.proxyUrl, '/platform/pay', body, { secret: TEST_SECRET });
          expect(res.status).toBe(200);
        }),
      );
    }
    await expect.poll(loadedCount, { timeout: 10_000 }).toBe(before + BURST);
    const ids = (await page.getByTestId('capture-row').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id'))))) as number[];
    expect(ids.length).toBeGreaterThan(10);
    for (let i = 1; i < ids.length; i++) expect(ids[i]!).toBeLessThan(ids[i - 1]!);
    expect(await page.getByTestId('row-deposit').first().textContent()).toMatch(/^dep-burst-\d+$/);
    await page
      .getByTestId('counts')
      .getByText(`${(ROWS + 1 + BURST).toLocaleString('en-US')} captured`)
      .waitFor({ timeout: 5_000 });
    expect(pageErrors).toEqual([]);
  });
});
