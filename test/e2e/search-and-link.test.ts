// The capture list's search box finds text anywhere in what was stored (a body's words, any part of an
// id), newest first; an exchange has an address (#/exchange/ID) that opens it, next to the access token
// or after it, and the detail shows it as a link to copy. The composer saves a draft under a name and
// loads it again.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import { TEST_SECRET, sendCallback, type Stack } from './helpers/stack';
import { must } from '../helpers/must';

let session: E2eSession;
let stack: Stack;
let page: Page;
let pageErrors: string[];

const pay = (depositId: string, extra = ''): string => `{"userId":"user-5","depositId":"${depositId}","currency":"EUR","amount":5${extra}}`;

beforeAll(async () => {
  session = await openSession({
    prepare: async (s) => {
      for (let i = 0; i < 25; i++) expect((await sendCallback(s.proxyUrl, '/platform/pay', pay(`dep-${i}`), { secret: TEST_SECRET })).status).toBe(200);
      const memo = pay('dep-10023', ',"memo":"Refund for Table Nine"');
      expect((await sendCallback(s.proxyUrl, '/platform/pay', memo, { secret: TEST_SECRET })).status).toBe(200);
      for (let i = 25; i < 40; i++) expect((await sendCallback(s.proxyUrl, '/platform/pay', pay(`dep-${i}`), { secret: TEST_SECRET })).status).toBe(200);
    },
  });
  ({ stack, page, pageErrors } = session);
}, 120_000);

afterAll(() => session?.close());

const deposits = (): Promise<string[]> => page.getByTestId('row-deposit').allTextContents();

describe('search and links in Chromium', () => {
  it('finds a body substring, then any part of an id, at the top of the list', async () => {
    await page.goto(stack.ui.url);
    await page.getByTestId('capture-row').first().waitFor();
    expect((await deposits())[0]).toBe('dep-39');
    await page.getByTestId('filter-search').fill('table nine');
    await expect.poll(deposits).toEqual(['dep-10023']);
    await screenshot(page, 'search-body-text');
    await page.getByTestId('filter-search').fill('1002');
    await expect.poll(deposits).toEqual(['dep-10023']);
    // Two characters: a depositId or userId prefix (here: none starts with "10").
    await page.getByTestId('filter-search').fill('10');
    await expect.poll(deposits).toEqual([]);
    await page.getByTestId('filter-search').fill('dep-3');
    await expect.poll(deposits).toEqual(['dep-39', 'dep-38', 'dep-37', 'dep-36', 'dep-35', 'dep-34', 'dep-33', 'dep-32', 'dep-31', 'dep-30', 'dep-3']);
    expect(pageErrors).toEqual([]);
  });

  it('puts the open exchange in the address, shows its link, and a link opens it in a new tab with the token', async () => {
    await page.getByTestId('filter-search').fill('table nine');
    await expect.poll(deposits).toEqual(['dep-10023']);
    await page.getByTestId('capture-row').first().click();
    const pane = page.getByTestId('detail-pane');
    await expect.poll(() => pane.getAttribute('data-exchange-id')).not.toBeNull();
    const id = Number(await pane.getAttribute('data-exchange-id'));
    const origin = new URL(stack.ui.url).origin;
    await expect.poll(() => page.evaluate<string>('window.location.hash')).toBe(`#/exchange/${id}`);
    expect(await page.getByTestId('exchange-link').getAttribute('href')).toBe(`${origin}/#/exchange/${id}`);
    await screenshot(page, 'exchange-link');

    // A fresh tab (no token in its storage) opened at the link with the token after the route.
    const token = /#token=(.+)$/.exec(stack.ui.url)![1]!;
    const other = await session.browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await other.goto(`${origin}/#/exchange/${id}&token=${token}`);
      const otherPane = other.getByTestId('detail-pane');
      await expect.poll(() => otherPane.getAttribute('data-exchange-id'), { timeout: 8_000 }).toBe(String(id));
      await other.getByTestId('detail-kind').waitFor();
      // The token left the address; the route stayed.
      expect(await other.evaluate<string>('window.location.hash')).toBe(`#/exchange/${id}`);
      // Another route pasted into the same tab opens that exchange.
      const firstId = id - 25;
      await other.evaluate(`window.location.hash = '#/exchange/${firstId}'`);
      await expect.poll(() => otherPane.getAttribute('data-exchange-id')).toBe(String(firstId));
      await expect.poll(() => other.getByTestId('detail-pane').locator('code').first().textContent()).toBe('dep-0');
    } finally {
      await other.close();
    }
    expect(pageErrors).toEqual([]);
  });

  it('saves the composer draft under a name and loads it again', async () => {
    await page.getByTestId('nav-composer').click();
    await page.getByTestId('template-pay').click();
    await page.getByTestId('saved-name').fill('my pay');
    await page.getByTestId('saved-save').click();
    await page.getByTestId('saved-note').getByText('Saved "my pay"').waitFor();
    const saved = must(await stack.desk.listSavedRequests());
    expect(saved.map((r) => r.name)).toEqual(['my pay']);
    await page.getByTestId('composer-new').selectOption('win');
    await expect.poll(() => page.getByTestId('composer-origin').getAttribute('data-kind')).toBe('template');
    await page.getByTestId('saved-open').selectOption('my pay');
    await expect.poll(() => page.getByTestId('composer-origin').getAttribute('data-kind')).toBe('saved');
    await page.getByTestId('saved-delete').click();
    await page.getByTestId('saved-note').getByText('Deleted "my pay"').waitFor();
    expect(must(await stack.desk.listSavedRequests())).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
