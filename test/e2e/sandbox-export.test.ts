// The sandbox operator's screen and the evidence exports in Chromium, through the web mode: balances
// and deposits follow the callbacks live; a balance set to 0 provokes INSUFFICIENT_BALANCE; reset asks
// first. Then HAR out (the filtered list, downloaded) and in (a file chosen in the page: the count, or
// the error naming the entry and field), and a deposit's ticket bundle.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goTo, openApp } from './helpers/app';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import { TEST_SECRET, sendCallback, type Stack } from './helpers/stack';

let session: E2eSession;
let stack: Stack;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  session = await openSession();
  ({ stack, page, pageErrors } = session);
}, 120_000);

afterAll(() => session?.close());

async function pay(userId: string, depositId: string, amount: number): Promise<Response> {
  const res = await sendCallback(stack.proxyUrl, '/platform/pay', JSON.stringify({ userId, depositId, currency: 'EUR', amount }), { secret: TEST_SECRET });
  await res.arrayBuffer();
  return res;
}

async function win(userId: string, depositId: string, amount: number): Promise<void> {
  const body = JSON.stringify({ result: 'WIN', userId, depositId, roomId: 'room-9', gameId: 'blocks', currency: 'EUR', amount });
  const res = await sendCallback(stack.proxyUrl, '/platform/results', body, { secret: TEST_SECRET });
  await res.arrayBuffer();
}

const user = (userId: string) => page.locator(`[data-testid="sandbox-user"][data-user="${userId}"]`);
const deposit = (depositId: string) => page.locator(`[data-testid="sandbox-deposit"][data-deposit="${depositId}"]`);

describe('the sandbox screen and the exports in Chromium', () => {
  it('shows balances and deposits, following the callbacks live', async () => {
    await openApp(page, stack);
    await goTo(page, 'sandbox');
    const starting = Number(await page.getByTestId('starting-balance').textContent());
    expect((await pay('sandy', 'dep-s1', 30)).status).toBe(200);
    await user('sandy')
      .getByTestId('sandbox-balance')
      .getByText(String(starting - 30), { exact: true })
      .waitFor();
    await deposit('dep-s1').getByText('open').waitFor();
    await win('sandy', 'dep-s1', 45);
    await deposit('dep-s1').getByText('WIN').waitFor();
    await user('sandy')
      .getByTestId('sandbox-balance')
      .getByText(String(starting + 15), { exact: true })
      .waitFor();
    await screenshot(page, '40-sandbox');
  });

  it("sets a user's balance to 0: the next pay is refused with INSUFFICIENT_BALANCE", async () => {
    await user('sandy').getByTestId('sandbox-zero').click();
    await user('sandy').getByTestId('sandbox-balance').getByText('0', { exact: true }).waitFor();
    const res = await pay('sandy', 'dep-s2', 5);
    expect(res.status).toBe(402);
    await user('sandy').getByTestId('sandbox-edit').click();
    await user('sandy').getByTestId('balance-value').fill('1250');
    await user('sandy').getByTestId('balance-set').click();
    await user('sandy').getByTestId('sandbox-balance').getByText('1250', { exact: true }).waitFor();
  });

  it('resets only after confirmation', async () => {
    await page.getByTestId('sandbox-reset').click();
    await page.getByTestId('confirm-cancel').click();
    expect(await user('sandy').count()).toBe(1);
    await page.getByTestId('sandbox-reset').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => user('sandy').count()).toBe(0);
    expect(await page.getByTestId('sandbox-view').textContent()).toContain('No user yet');
  });

  it('exports the filtered capture list as HAR, and imports a HAR file as captures', async () => {
    await goTo(page, 'captures');
    await page.getByTestId('capture-row').first().waitFor();
    await page.getByTestId('filter-kind').selectOption('pay');
    await expect.poll(() => page.getByTestId('capture-row').evaluateAll((els) => els.length)).toBe(2);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-list-har').click()]);
    expect(download.suggestedFilename()).toMatch(/^captures-.*\.har$/);
    const harText = await readFile((await download.path())!, 'utf8');
    const har = JSON.parse(harText) as { log: { version: string; entries: Array<{ request: { url: string; postData?: { text: string } } }> } };
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(2);
    expect(har.log.entries.every((e) => e.request.url.endsWith('/platform/pay'))).toBe(true);
    expect(harText).not.toContain(TEST_SECRET);

    await page.getByTestId('filter-clear').click();
    // Both pays and the WIN, once the unfiltered list is back.
    const before = 3;
    await expect.poll(async () => Number(await page.getByTestId('capture-list').getAttribute('data-count'))).toBe(before);
    await page.getByTestId('import-har-input').setInputFiles({ name: 'from-devtools.har', mimeType: 'application/json', buffer: Buffer.from(harText) });
    await page.getByTestId('import-har-done').waitFor();
    expect(await page.getByTestId('import-har-done').textContent()).toBe('Imported 2 exchanges from from-devtools.har.');
    await expect.poll(async () => Number(await page.getByTestId('capture-list').getAttribute('data-count'))).toBe(before + 2);

    // A malformed file: nothing imported, and the error names the entry and the field.
    const broken = JSON.parse(harText) as { log: { entries: Array<{ request: Record<string, unknown> }> } };
    delete broken.log.entries[1]!.request.method;
    await page.getByTestId('import-har-input').setInputFiles({ name: 'broken.har', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
    const error = page.getByTestId('import-har-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/entries\[1\]\.request\.method/);
    expect(Number(await page.getByTestId('capture-list').getAttribute('data-count'))).toBe(before + 2);
    await screenshot(page, '41-har-import-error');
  });

  it("shows a deposit's ticket bundle as Markdown, and exports its timeline as HAR", async () => {
    await goTo(page, 'timeline');
    await page.getByTestId('timeline-input').fill('dep-s1');
    await page.getByTestId('timeline-input').press('Enter');
    await page.locator('[data-testid="timeline"][data-deposit="dep-s1"]').waitFor();
    await page.getByTestId('ticket-bundle').click();
    const text = (await page.getByTestId('ticket-text').textContent())!;
    expect(text).toContain('## Deposit `dep-s1`');
    expect(text).toContain('### Timeline');
    expect(text).not.toContain(TEST_SECRET);
    await screenshot(page, '42-ticket-bundle');
    await page.getByTestId('ticket-dialog').getByRole('button', { name: 'Close' }).click();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-deposit-har').click()]);
    const har = JSON.parse(await readFile((await download.path())!, 'utf8')) as { log: { entries: unknown[] } };
    expect(har.log.entries.length).toBeGreaterThanOrEqual(2);
  });

  it('raised no error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
