// A profile whose operator mounts the callbacks at its own prefix: the list shows the path of a callback
// that arrived elsewhere (still judged as that callback), and the composer's templates name the prefix.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { must } from '../helpers/must';
import { goTo, openApp } from './helpers/app';
import { openSession, type E2eSession } from './helpers/session';
import { TEST_SECRET, sendCallback, type Stack } from './helpers/stack';

let session: E2eSession;
let stack: Stack;
let page: Page;

const pay = (depositId: string): string => JSON.stringify({ userId: 'user-p', depositId, currency: 'EUR', amount: 500 });

beforeAll(async () => {
  session = await openSession();
  ({ stack, page } = session);
  must(await stack.desk.saveProfile({ name: 'default', callbackPrefix: '/acme' }));
  await (await sendCallback(stack.proxyUrl, '/acme/pay', pay('dep-at-prefix'), { secret: TEST_SECRET })).arrayBuffer();
  await (await sendCallback(stack.proxyUrl, '/platform/pay', pay('dep-elsewhere'), { secret: TEST_SECRET })).arrayBuffer();
  await openApp(page, stack);
}, 60_000);

afterAll(async () => {
  await session?.close();
});

describe('a profile with its own callback prefix, in Chromium', () => {
  it('shows the path of a pay posted outside the prefix, and none for one at it; both are pays', async () => {
    const row = (depositId: string) =>
      page.locator('[data-testid="capture-row"]', { has: page.locator(`[data-testid="row-deposit"][data-value="${depositId}"]`) });
    await row('dep-elsewhere').waitFor();
    await expect(row('dep-elsewhere').getByTestId('row-path').textContent()).resolves.toBe('/platform/pay');
    await expect(row('dep-elsewhere').getByTestId('row-path').getAttribute('title')).resolves.toContain('the profile expects /acme/pay');
    await expect(row('dep-at-prefix').getByTestId('row-path').count()).resolves.toBe(0);
    for (const id of ['dep-elsewhere', 'dep-at-prefix']) await expect(row(id).getByTestId('row-kind').textContent()).resolves.toContain('pay');
    expect(session.pageErrors).toEqual([]);
  });

  it("names the profile's prefix on the composer's templates", async () => {
    await goTo(page, 'composer');
    await expect(page.getByTestId('template-pay').textContent()).resolves.toContain('POST /acme/pay');
    await expect(page.getByTestId('template-refund').textContent()).resolves.toContain('POST /acme/results');
  });
});
