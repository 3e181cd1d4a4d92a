// Verify again, in Chromium: a capture taken before the profile had a secret is judged again from its
// detail and turns valid, saying when and with what; the current list is judged again in one go and
// its rows follow; a capture signed with the previous secret of a rotation is marked as such; the
// profile form sets and shows the previous secret by its fingerprint only.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src-main/core/signing';
import { must } from '../helpers/must';
import { screenshot } from './helpers/browser';
import { goTo, openApp } from './helpers/app';
import { openSession, type E2eSession } from './helpers/session';
import { TEST_SECRET, sendCallback, type Stack } from './helpers/stack';
import { exchangesOf } from '../helpers/log-reads';

const NEW_SECRET = 'e2e-rotated-secret-9876543210';

let session: E2eSession;
let stack: Stack;
let page: Page;
const ids: Record<string, number> = {};

async function post(depositId: string, secret: string): Promise<number> {
  const body = JSON.stringify({ userId: 'user-7', depositId, currency: 'EUR', amount: 5 });
  const res = await sendCallback(stack.proxyUrl, '/platform/pay', body, { secret });
  await res.arrayBuffer();
  return (await exchangesOf(stack.desk, { limit: 1 }))[0]!.id;
}

const rowOf = (id: number) => page.locator(`[data-testid="capture-row"][data-id="${id}"]`);
const rowVerdict = (id: number) => rowOf(id).getByTestId('row-verdict');

beforeAll(async () => {
  session = await openSession({ secret: null });
  ({ stack, page } = session);
  // Captured while no profile had a secret: recorded as no-secret.
  ids.first = await post('dep-before-1', TEST_SECRET);
  ids.second = await post('dep-before-2', TEST_SECRET);
  // The platform rotates: the desk now holds the new secret, and the old one as the previous.
  must(await stack.desk.saveProfile({ name: 'default', secret: NEW_SECRET, previousSecret: TEST_SECRET }));
  must(await stack.desk.useProfile('default'));
  ids.rotated = await post('dep-rotated', TEST_SECRET);
  await openApp(page, stack);
  await rowOf(ids.rotated).waitFor();
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe('Verify again', () => {
  it('judges one capture again from its detail: no-secret becomes valid, with when and with what', async () => {
    await rowOf(ids.first!).click();
    const pane = page.locator(`[data-testid="detail-pane"][data-exchange-id="${ids.first}"]`);
    await pane.getByTestId('signature-section').waitFor();
    expect(await pane.getByTestId('detail-verdict').getAttribute('data-verdict')).toBe('no-secret');
    expect(await pane.getByTestId('verdict-explanation').innerText()).toContain('The profile has one now: Verify again checks this capture with it.');

    await pane.getByTestId('verify-again').click();
    await pane.locator('[data-testid="detail-verdict"][data-verdict="valid"]').waitFor();
    const note = await pane.getByTestId('reverified-note').innerText();
    expect(note).toContain(`with profile default (sha256:${fingerprint(NEW_SECRET)})`);
    expect(note).toContain('first recorded as no-secret');
    // Signed with the secret the rotation is retiring: valid, and marked.
    await pane.getByTestId('previous-secret-marker').waitFor();
    expect(await pane.getByTestId('signature-notes').innerText()).toMatch(/valid with the previous secret of profile "default"/i);
    await rowOf(ids.first!).locator('[data-testid="row-verdict"][data-verdict="valid"]').waitFor();
    await screenshot(page, 'verify-again-detail');
  });

  it('judges the current list again: every row it selects, and the rows follow', async () => {
    expect(await rowVerdict(ids.second!).getAttribute('data-verdict')).toBe('no-secret');
    await page.getByTestId('verify-list-again').click();
    const report = await page.getByTestId('verify-list-report').innerText();
    expect(report).toContain('3 verified again, 1 changed');
    await rowOf(ids.second!).locator('[data-testid="row-verdict"][data-verdict="valid"]').waitFor();
  });

  it('marks a capture signed with the previous secret as it arrives', async () => {
    await rowOf(ids.rotated!).click();
    const pane = page.locator(`[data-testid="detail-pane"][data-exchange-id="${ids.rotated}"]`);
    await pane.getByTestId('previous-secret-marker').waitFor();
    expect(await pane.getByTestId('detail-verdict').getAttribute('data-verdict')).toBe('valid');
  });

  it('shows the previous secret in the profile form by its fingerprint, and clears it', async () => {
    await goTo(page, 'profiles');
    const editor = page.locator('[data-testid="profile-editor"][data-name="default"]');
    const state = editor.getByTestId('profile-previous-secret-state');
    expect(await state.getAttribute('data-set')).toBe('true');
    expect(await state.innerText()).toContain(fingerprint(TEST_SECRET));
    expect(await page.content()).not.toContain(TEST_SECRET);
    await editor.getByTestId('profile-previous-secret-clear').click();
    await editor.locator('button[type="submit"]').click();
    await editor.locator('[data-testid="profile-previous-secret-state"][data-set="false"]').waitFor();
    expect(must(await stack.desk.listProfiles())[0]!.previousSecret.set).toBe(false);
  });
});
