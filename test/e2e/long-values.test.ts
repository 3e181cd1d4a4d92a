// Long values at 1280x800, in both themes: four profiles on one proxy that forwards to an operator on a
// long-ish address, and a sandbox that has seen the long-user-id check (a 1,000-character userId).
// Nothing that matters is cut (the proxy URL, the mode, the public URL, the profile, the counts, the
// Balances column), the status bar's items do not overlap, the callbacks of four profiles leave the
// screen to the work, an 8-character userId reads whole in the capture list (with every profile's
// captures too, beside their Profile column), and the composer's Send bar covers nothing. Screenshots of both screens in both themes land in test-artifacts/e2e/long-values/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture } from '../helpers/captures';
import { must } from '../helpers/must';
import { startOperator, type StandInOperator } from '../helpers/operator';
import { goTo, openApp } from './helpers/app';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import { TEST_SECRET } from './helpers/stack';

const VIEWPORT = { width: 1280, height: 800 } as const;
const THEMES = ['light', 'dark'] as const;
const PROFILES = ['acme-casino', 'beta-games', 'gamma-sportsbook'] as const;
const SHORT_USER = 'u-acme-9';

let session: E2eSession;
let page: Page;
let operator: StandInOperator;
let longUserId: string;

beforeAll(async () => {
  session = await openSession();
  page = session.page;
  const { desk } = session.stack;
  for (const [i, name] of PROFILES.entries())
    must(await desk.saveProfile({ name, secret: `${TEST_SECRET}-${i}`, callbackPrefix: `/${name}`, publicUrl: `https://${name}-tunnel.example.com` }));
  // The check's pay reaches the sandbox through the proxy: its books now hold the long userId.
  must(await desk.runEdgeCase('long-user-id', { to: session.stack.proxyUrl }));
  const state = must(await desk.getSandboxState());
  longUserId = state.users.map((u) => u.userId).find((u) => u.length >= 1000)!;
  expect(longUserId).toBeDefined();
  await capture(desk, {
    body: JSON.stringify({ userId: SHORT_USER, depositId: 'dep-short-user', currency: 'USD', amount: 500 }),
    signature: { secret: TEST_SECRET },
  });
  // Another profile's capture and one nobody's prefix received: the all-profiles list names whose each is.
  await capture(desk, { body: JSON.stringify({ userId: 'u-gamma-1', depositId: 'dep-gamma', currency: 'USD', amount: 700 }), profile: 'gamma-sportsbook' });
  await capture(desk, { path: '/nowhere/pay', body: JSON.stringify({ userId: 'u-stray', depositId: 'dep-unassigned' }), profile: null });
  // Then the proxy forwards (the mode the status bar spells out in full).
  operator = await startOperator({ secret: TEST_SECRET });
  must(await desk.startProxy({ port: Number(new URL(session.stack.proxyUrl).port), upstream: operator.url }));
  await page.setViewportSize(VIEWPORT);
  await openApp(page, session.stack);
}, 120_000);

afterAll(async () => {
  await operator?.close();
  await session?.close();
});

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Each element's text, its box, and whether its text is cut (wider than its box, or clipped with an ellipsis). */
async function measure(selectors: readonly string[]): Promise<Array<{ selector: string; text: string; box: Box; cut: boolean }>> {
  return page.evaluate(`(${JSON.stringify(selectors)}).map((selector) => {
    const el = document.querySelector(selector);
    if (!el) return { selector, text: null, box: null, cut: true };
    const r = el.getBoundingClientRect();
    const cutHere = (e) => e.scrollWidth > e.clientWidth + 1;
    let cut = cutHere(el);
    for (let p = el.parentElement; p && !cut && p !== document.body; p = p.parentElement) {
      // An ancestor that clips with an ellipsis and is narrower than its content cuts this text too.
      const s = getComputedStyle(p);
      if (s.textOverflow === 'ellipsis' && cutHere(p)) cut = true;
    }
    return { selector, text: el.textContent, box: { left: r.left, right: r.right, top: r.top, bottom: r.bottom }, cut };
  })`);
}

async function useTheme(theme: 'light' | 'dark'): Promise<void> {
  await page.setViewportSize(VIEWPORT);
  await page.emulateMedia({ colorScheme: theme });
}

const STATUS_VALUES = [
  '[data-testid="proxy-url"]',
  '[data-testid="proxy-mode"] [data-testid="proxy-upstream"]',
  '[data-testid="public-url"] > :not(.status-label)',
  '[data-testid="active-profile"]',
  '[data-testid="counts"] > :not(.status-label)',
] as const;

describe('long values at 1280x800, four profiles', () => {
  for (const theme of THEMES) {
    it(`the status bar and the callbacks (${theme}): every value whole, no two items overlapping, the callbacks compact`, async () => {
      await useTheme(theme);
      await goTo(page, 'captures');
      await page.getByTestId('proxy-upstream').getByText(operator.url).waitFor();
      // Before the measures, so that a failure comes with its picture.
      await screenshot(page, `long-values/1280x800-${theme}-status-bar`);
      const values = await measure(STATUS_VALUES);
      expect(values.map((v) => ({ selector: v.selector, cut: v.cut }))).toEqual(STATUS_VALUES.map((selector) => ({ selector, cut: false })));
      expect(values[0]!.text).toBe(session.stack.proxyUrl);
      expect(values[3]!.text).toBe('default');
      for (const v of values) expect({ selector: v.selector, right: v.box.right <= VIEWPORT.width }).toEqual({ selector: v.selector, right: true });

      const items = await page.evaluate<Box[]>(
        `[...document.querySelector('[data-testid="status-bar"]').children].map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0).map((r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom }))`,
      );
      for (const [i, a] of items.entries())
        for (const b of items.slice(i + 1)) {
          const overlap = a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
          expect({ a, b, overlap }).toEqual({ a, b, overlap: false });
        }

      // Four profiles' callbacks: the active profile's URLs, the others a click away.
      const area = (await page.locator('.status-area').boundingBox())!;
      expect(area.height).toBeLessThanOrEqual(100);
      await page.getByTestId('status-callback-urls-default-pay').waitFor();
      expect(await page.getByTestId('status-callback-urls-more').textContent()).toBe('+ 3 other profiles');
    });

    it(`the sandbox screen (${theme}): the Balances column in view, long ids on one line`, async () => {
      await useTheme(theme);
      await goTo(page, 'sandbox');
      const user = page.locator(`[data-testid="sandbox-user"][data-user="${longUserId}"]`);
      await user.waitFor();
      await screenshot(page, `long-values/1280x800-${theme}-sandbox`);
      const fit = await page.evaluate<{ scroll: number; inner: number }>(`({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })`);
      expect(fit.scroll).toBe(fit.inner);
      for (const card of await page.locator('.card').all()) {
        const sizes = await card.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
      }
      const balance = (await user.getByTestId('sandbox-balance').boundingBox())!;
      expect(balance.x + balance.width).toBeLessThanOrEqual(VIEWPORT.width);
      expect(await user.getByTestId('sandbox-balance').isVisible()).toBe(true);
      // The whole id is a hover away.
      expect(await user.getByTestId('sandbox-user-id').getAttribute('title')).toBe(longUserId);
      // Every id cell is one line.
      const tall = await page.evaluate<string[]>(
        `[...document.querySelectorAll('[data-testid="sandbox-view"] td')].filter((td) => td.getBoundingClientRect().height > 3 * parseFloat(getComputedStyle(td).fontSize)).map((td) => td.textContent)`,
      );
      expect(tall).toEqual([]);
    });
  }

  it('reads an 8-character userId whole in the capture list', async () => {
    await useTheme('light');
    await goTo(page, 'captures');
    const cell = page.locator(`[data-testid="row-user"][data-value="${SHORT_USER}"]`);
    await cell.waitFor();
    await screenshot(page, 'long-values/1280x800-light-captures');
    expect(await cell.textContent()).toBe(SHORT_USER);
  });

  it('names whose each capture is when all profiles are shown, in a column that leaves every other one in view', async () => {
    await useTheme('light');
    await goTo(page, 'captures');
    await page.locator(`[data-testid="row-user"][data-value="${SHORT_USER}"]`).waitFor();
    // One profile's list says nothing of whose it is.
    expect(await page.getByTestId('capture-header-profile').count()).toBe(0);
    expect(await page.getByTestId('row-profile').count()).toBe(0);

    await page.getByTestId('filter-all-profiles').check();
    const rowOf = (depositId: string) =>
      page.getByTestId('capture-row').filter({ has: page.locator(`[data-testid="row-deposit"][data-value="${depositId}"]`) });
    const gamma = rowOf('dep-gamma').getByTestId('row-profile');
    await gamma.waitFor();
    await screenshot(page, 'long-values/1280x800-light-all-profiles');
    expect(await page.getByTestId('capture-header-profile').textContent()).toBe('Profile');
    expect(await rowOf('dep-short-user').getByTestId('row-profile').textContent()).toBe('default');
    expect(await rowOf('dep-unassigned').getByTestId('row-profile').textContent()).toBe('unassigned');
    // A name longer than the column keeps both ends, whole in the tooltip.
    expect(await gamma.getAttribute('title')).toBe('gamma-sportsbook');
    expect(await gamma.textContent()).toMatch(/^gam.*….*book$/);

    // Nothing pushed off: the 8-character userId still whole, every cell inside its row, the rows inside the list.
    expect(await rowOf('dep-short-user').getByTestId('row-user').textContent()).toBe(SHORT_USER);
    const fit = await page.evaluate<{ list: number; rows: Array<{ scroll: number; client: number; right: number; cellsRight: number }> }>(`({
      list: document.querySelector('.split-left').getBoundingClientRect().right,
      rows: [...document.querySelectorAll('[data-testid="capture-row"]')].map((r) => ({
        scroll: r.scrollWidth,
        client: r.clientWidth,
        right: r.getBoundingClientRect().right,
        cellsRight: Math.max(...[...r.children].map((c) => c.getBoundingClientRect().right)),
      })),
    })`);
    expect(fit.rows.length).toBeGreaterThanOrEqual(3);
    expect(fit.list).toBeLessThanOrEqual(VIEWPORT.width);
    for (const r of fit.rows) {
      expect(r.scroll).toBeLessThanOrEqual(r.client);
      expect(r.cellsRight).toBeLessThanOrEqual(r.right);
      expect(r.right).toBeLessThanOrEqual(fit.list);
    }
    const status = (await rowOf('dep-short-user').getByTestId('row-status').boundingBox())!;
    expect(status.x + status.width).toBeLessThanOrEqual(fit.list);

    await page.getByTestId('filter-all-profiles').uncheck();
    await expect.poll(() => page.getByTestId('row-profile').count()).toBe(0);
  });

  for (const theme of THEMES) {
    it(`keeps the composer's Send bar opaque (${theme}): the Custom secret field scrolling under it does not show through`, async () => {
      await useTheme(theme);
      await goTo(page, 'captures');
      await page.locator('[data-testid="row-deposit"][data-value="dep-short-user"]').click();
      await page.getByTestId('edit-and-replay').click();
      await page.getByTestId('draft-editor').waitFor();
      await page.getByTestId('signature-custom').click();
      await page.getByTestId('custom-secret').waitFor();
      const alpha = await page.evaluate<number>(`(() => {
        const c = getComputedStyle(document.querySelector('.composer-actions')).backgroundColor;
        const parts = c.match(/[\\d.]+/g).map(Number);
        return c.startsWith('rgba') ? parts[3] : 1;
      })()`);
      expect(alpha).toBe(1);
    });
  }
});
