// Redelivery in Chromium, through the web mode: from the capture list, the dialog counts the captures
// that failed, asks before sending to a production operator, shows progress and the report; the
// operator gets each once, in order, with the platform's own signatures; a slow run can be stopped.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture } from '../helpers/captures';
import { must } from '../helpers/must';
import { startOperator, type StandInOperator } from '../helpers/operator';
import { openApp } from './helpers/app';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import { TEST_SECRET } from './helpers/stack';

let session: E2eSession;
let page: Page;
let operator: StandInOperator;
let pageErrors: string[];

const pay = (depositId: string) => JSON.stringify({ userId: 'e2e-redeliver', depositId, currency: 'EUR', amount: 3 });

beforeAll(async () => {
  session = await openSession();
  ({ page, pageErrors } = session);
  operator = await startOperator({ secret: TEST_SECRET });
  must(await session.stack.desk.saveProfile({ name: 'default', operatorUrl: operator.url, production: true }));
}, 120_000);

afterAll(async () => {
  await operator?.close();
  await session?.close();
});

describe('redelivery in Chromium', () => {
  it('counts the failed captures, confirms production, sends them and shows the report', async () => {
    const { desk } = session.stack;
    for (const dep of ['dep-r1', 'dep-r2', 'dep-r3'])
      await capture(desk, { body: pay(dep), signature: { secret: TEST_SECRET }, error: 'connect ECONNREFUSED' });
    await capture(desk, { body: pay('dep-ok'), signature: { secret: TEST_SECRET }, response: { status: 200 } });
    await openApp(page, session.stack);
    await page.getByTestId('open-redeliver').click();
    await page.getByTestId('redeliver-count').getByText(`3 to send to ${operator.url}`).waitFor();
    await page.getByTestId('redeliver-rate').fill('1000');
    await page.getByTestId('redeliver-start').click();
    await page.getByTestId('production-confirm').waitFor();
    await screenshot(page, '70-redeliver-confirm');
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('redeliver-report').waitFor();
    expect(await page.getByTestId('redeliver-sent').textContent()).toBe('3');
    expect(await page.getByTestId('redeliver-ok').textContent()).toBe('3');
    expect(operator.requests.map((r) => JSON.parse(r.body.toString()).depositId)).toEqual(['dep-r1', 'dep-r2', 'dep-r3']);
    expect(operator.requests.every((r) => r.rawSignatureValid && r.status === 200)).toBe(true);
    await page.getByTestId('redeliver-count').getByText('0 to send').waitFor();
    await page.getByTestId('redeliver-count').getByText('3 already redelivered').waitFor();
    await screenshot(page, '71-redeliver-report');
  });

  it('stops a slow run with Stop, and says so', async () => {
    await page.getByTestId('redeliver-again').check();
    await page.getByTestId('redeliver-count').getByText('3 to send').waitFor();
    await page.getByTestId('redeliver-rate').fill('0.5');
    await page.getByTestId('redeliver-start').click();
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('redeliver-progress').getByText('1 / 3').waitFor();
    await page.getByTestId('redeliver-stop').click();
    await page.getByTestId('redeliver-report').getByText('Stopped').waitFor();
    expect(Number(await page.getByTestId('redeliver-sent').textContent())).toBeLessThan(3);
    expect(pageErrors).toEqual([]);
  });
});
