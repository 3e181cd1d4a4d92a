// In Chromium, through the web mode: deleting captures asks first and says how many, and the counts in
// the status bar follow; the Sandbox screen's Faults panel adds a fault the next callback gets; the edge
// cases screen runs the cases shown in one go with a summary; the composer sends an added header signed and a
// hand-set signature header as given.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { must } from '../helpers/must';
import { startOperator, type StandInOperator } from '../helpers/operator';
import { goTo, openApp } from './helpers/app';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import { TEST_SECRET, sendCallback, type Stack } from './helpers/stack';

let session: E2eSession;
let stack: Stack;
let page: Page;
let pageErrors: string[];
let operator: StandInOperator;

beforeAll(async () => {
  session = await openSession();
  ({ stack, page, pageErrors } = session);
  operator = await startOperator({ secret: TEST_SECRET });
  must(await stack.desk.saveProfile({ name: 'default', secret: TEST_SECRET, operatorUrl: operator.url }));
}, 120_000);

afterAll(async () => {
  await session?.close();
  await operator?.close();
});

async function pay(userId: string, depositId: string): Promise<number> {
  const res = await sendCallback(stack.proxyUrl, '/platform/pay', JSON.stringify({ userId, depositId, currency: 'EUR', amount: 1 }), { secret: TEST_SECRET });
  await res.arrayBuffer();
  return res.status;
}

const rows = () => page.getByTestId('capture-row').evaluateAll((els) => els.length);
const countsText = () => page.getByTestId('counts').textContent();

describe('clearing captures, faults and Run all in Chromium', () => {
  it('deletes the selected capture after a confirmation naming one; the counts follow', async () => {
    await openApp(page, stack);
    for (const [u, d] of [
      ['keep-c', 'dc-1'],
      ['del-a', 'da-1'],
      ['del-a', 'da-2'],
      ['del-b', 'db-1'],
      ['gone-x', 'dx-1'],
    ] as const)
      expect(await pay(u, d)).toBe(200);
    await expect.poll(rows).toBe(5);
    await expect.poll(countsText).toContain('5 captured');

    await page.getByTestId('capture-row').first().click();
    await page.getByTestId('delete-selected').click();
    await page.getByTestId('delete-captures-confirm').waitFor();
    expect(await page.getByTestId('delete-captures-confirm').textContent()).toContain('Delete 1 capture?');
    await page.getByTestId('confirm-cancel').click();
    expect(await rows()).toBe(5);

    await page.getByTestId('delete-selected').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(rows).toBe(4);
    await expect.poll(countsText).toContain('4 captured');
    expect(must(await stack.desk.listExchanges({})).items.map((x) => x.userId)).not.toContain('gone-x');
  });

  it("deletes the filter's rows after saying how many", async () => {
    await page.getByTestId('filter-search').fill('del-');
    await expect.poll(rows).toBe(3);
    await page.getByTestId('delete-filtered').click();
    expect(await page.getByTestId('delete-captures-count').textContent()).toContain('3 captures matching the filters');
    await screenshot(page, '70-delete-confirm');
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('captures-none-match').waitFor();
    await expect.poll(countsText).toContain('1 captured');
    const left = must(await stack.desk.listExchanges({}));
    expect(left.items.map((x) => x.userId)).toEqual(['keep-c']);
  });

  it('adds a fault on the Sandbox screen: the next pay gets it, and the panel counts it spent', async () => {
    await goTo(page, 'sandbox');
    await page.getByTestId('faults-none').waitFor();
    await page.getByTestId('fault-path').selectOption('pay');
    await page.getByTestId('fault-value').fill('503');
    await page.getByTestId('fault-limit').fill('1');
    await page.getByTestId('fault-add').click();
    await page.getByTestId('fault').first().waitFor();
    expect(await pay('faulty', 'df-1')).toBe(503);
    expect(await pay('faulty', 'df-2')).toBe(200);
    await page.getByTestId('sandbox-reset').waitFor();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator('[data-testid="fault"][data-spent="true"]').waitFor();
    expect(await page.getByTestId('fault-applied').first().textContent()).toContain('1 of 1');
    await screenshot(page, '71-faults-panel');
    await page.getByTestId('faults-clear').click();
    await page.getByTestId('faults-none').waitFor();
  });

  it('runs the edge cases shown in one go and shows the summary', async () => {
    await goTo(page, 'edge-cases');
    await page.getByTestId('edge-filter').fill('duplicate');
    await page.getByTestId('edge-run-all').waitFor();
    const label = await page.getByTestId('edge-run-all').textContent();
    const shown = Number(/(\d+)/.exec(label ?? '')?.[1]);
    expect(shown).toBeGreaterThanOrEqual(2);
    await page.getByTestId('edge-run-all').click();
    await page.locator('[data-testid="edge-run-all-summary"][data-running="false"]').waitFor({ timeout: 30_000 });
    const summary = await page.getByTestId('edge-run-all-summary').textContent();
    expect(summary).toMatch(new RegExp(`^${shown} run: \\d+ passed, 0 failed, 0 blocked, \\d+ not observable, \\d+ not judged$`));
    await screenshot(page, '72-edge-run-all');
  });

  it('the composer: an added header goes out signed; a hand-set signature header is sent as given, with a note', async () => {
    expect(await pay('hdr-user', 'dh-1')).toBe(200);
    await goTo(page, 'captures');
    await page.getByTestId('filter-search').fill('');
    const row = page.getByTestId('capture-row').filter({ has: page.getByTestId('row-deposit').getByText('dh-1', { exact: true }) });
    await row.click();
    await page.getByTestId('edit-and-replay').click();
    await page.getByTestId('draft-editor').waitFor();
    const editor = page.getByTestId('headers-editor');
    if ((await editor.getAttribute('open')) === null) await editor.locator('summary').click();
    await page.getByTestId('header-add').click();
    await page.getByTestId('header-name').last().fill('X-Support-Ticket');
    await page.getByTestId('header-value').last().fill('T-42');
    expect(await page.getByTestId('signature-by-hand').count()).toBe(0);
    const before = operator.requests.length;
    await page.getByTestId('composer-send').click();
    await expect.poll(() => operator.requests.length).toBe(before + 1);
    expect(operator.requests.at(-1)!.headers['x-support-ticket']).toBe('T-42');
    expect(operator.requests.at(-1)!.rawSignatureValid).toBe(true);

    const handSet = 'ab'.repeat(32);
    const sigRow = page.getByTestId('header-row').filter({ has: page.locator('[data-testid="header-name"][value="x-server-authorization"]') });
    await sigRow.getByTestId('header-value').fill(handSet);
    await page.getByTestId('signature-by-hand').waitFor();
    await page.getByTestId('signature-preview-value').getByText(handSet).waitFor();
    await screenshot(page, '73-composer-signature-by-hand');
    await page.getByTestId('composer-send').click();
    await expect.poll(() => operator.requests.length).toBe(before + 2);
    expect(operator.requests.at(-1)!.headers['x-server-authorization']).toBe(handSet);
    expect(operator.requests.at(-1)!.rawSignatureValid).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
