// The composer and the edge-case catalog in Chromium, through the web mode, against a stand-in
// operator that verifies every signature over the raw bytes it received: replay a captured refund
// with an edited amount, send the results of a captured pay, hand-craft from a template, confirm
// before production, copy a signed cURL and run it, send the non-canonical JSON edge case and re-send
// its exact bytes from the composer.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src-main/core/signing';
import { startOperator, type StandInOperator } from '../helpers/operator';
import { bodyOf, goTo, openApp } from './helpers/app';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import { must } from '../helpers/must';
import { TEST_SECRET, sendCallback, type Stack } from './helpers/stack';

const run = promisify(execFile);

let session: E2eSession;
let stack: Stack;
let operator: StandInOperator;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  session = await openSession();
  ({ stack, page, pageErrors } = session);
  operator = await startOperator({ secret: TEST_SECRET });
  // The profile knows where the operator is: nothing to type in the composer.
  must(await stack.desk.saveProfile({ name: 'default', operatorUrl: operator.url }));
}, 120_000);

afterAll(async () => {
  await operator?.close();
  await session?.close();
});

const rowOf = (depositId: string) => page.getByTestId('capture-row').filter({ has: page.getByTestId('row-deposit').getByText(depositId, { exact: true }) });

async function capture(path: '/platform/pay' | '/platform/results', body: string): Promise<void> {
  const res = await sendCallback(stack.proxyUrl, path, body, { secret: TEST_SECRET });
  await res.arrayBuffer();
}

/** Sends the draft and waits for the answer pane to show the new exchange; returns its id. */
async function sendAndWait(): Promise<number> {
  const before = await page.getByTestId('sent-pane').getAttribute('data-exchange-id');
  await page.getByTestId('composer-send').click();
  const pane = page.locator(`[data-testid="sent-pane"][data-exchange-id]${before ? `:not([data-exchange-id="${before}"])` : ''}`);
  await pane.waitFor();
  return Number(await pane.getAttribute('data-exchange-id'));
}

describe('the composer and the edge-case catalog in Chromium', () => {
  it('offers a template of each kind before any draft exists', async () => {
    await openApp(page, stack);
    await goTo(page, 'composer');
    await page.getByTestId('composer-start').waitFor();
    for (const kind of ['pay', 'win', 'draw', 'lose', 'refund']) await page.getByTestId(`template-${kind}`).waitFor();
    expect(await page.getByTestId('template-user').inputValue()).toBe('wd-test-user');
    await screenshot(page, '09-composer-start');
  });

  it('replays a captured refund with an edited amount: the operator verifies the new bytes', async () => {
    const refund = JSON.stringify({
      result: 'REFUND',
      userId: 'user-7',
      depositId: 'dep-refund',
      roomId: 'room-1',
      gameId: 'blocks',
      currency: 'EUR',
      amount: 5,
    });
    await capture('/platform/pay', JSON.stringify({ userId: 'user-7', depositId: 'dep-refund', currency: 'EUR', amount: 5 }));
    await capture('/platform/results', refund);
    await goTo(page, 'captures');

    // Click the refund, "Edit and replay": the composer opens with the captured bytes and the profile's target.
    const refundRow = rowOf('dep-refund').filter({ hasText: /results · REFUND/ });
    await refundRow.click();
    const refundId = Number(await refundRow.getAttribute('data-id'));
    await page.locator(`[data-testid="detail-pane"][data-exchange-id="${refundId}"] [data-testid="edit-and-replay"]`).waitFor();
    await page.getByTestId('edit-and-replay').click();
    await page.getByTestId('draft-editor').waitFor();
    expect(await page.getByTestId('composer-origin').textContent()).toContain(`#${refundId}`);
    expect(await page.getByTestId('composer-target-profile-url').textContent()).toBe(operator.url);
    expect(await page.getByTestId('composer-send').textContent()).toContain(operator.url);
    await page.locator('[data-testid="composer-findings"][data-known="true"][data-pending="false"][data-count="0"]').waitFor();

    // Edit the amount in the editor as a person would: go to the end, step before the "}", replace the 5.
    await page.locator('[data-testid="body-editor"] .cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('7.25');
    const edited = refund.replace('"amount":5}', '"amount":7.25}');
    // The header shown before sending is the HMAC of the edited bytes.
    const expectedSignature = sign(new TextEncoder().encode(edited), TEST_SECRET);
    await page.getByTestId('signature-preview-value').getByText(expectedSignature).waitFor();
    await screenshot(page, '10-composer-edited-refund');

    const sentId = await sendAndWait();
    // The operator never saw this deposit's pay: it answers 200 {"ignored": true}, which the composer flags.
    expect(await page.getByTestId('sent-status').textContent()).toBe('200 ⚑ ignored');
    expect(await page.getByTestId('sent-verdict').getAttribute('data-verdict')).toBe('valid');

    // The operator's own record: the new amount, a signature valid over the exact bytes it received.
    const received = operator.requests.at(-1)!;
    expect(received.path).toBe('/platform/results');
    expect(received.body.toString('utf8')).toBe(edited);
    expect(received.rawSignatureValid).toBe(true);
    expect(bodyOf(received).amount).toBe(7.25);
    expect(received.headers['x-server-authorization']).toBe(expectedSignature);

    // Linked to its source, and the diff names the changed field, the signature and the response.
    const sent = must(await stack.desk.getExchange(sentId));
    expect(sent.sourceId).toBe(refundId);
    expect(sent.origin).toBe('replay');
    const amount = page.locator('[data-testid="diff-entry"][data-area="body"][data-path="$.amount"]');
    await amount.waitFor();
    expect(await amount.locator('.diff-before').textContent()).toBe('5');
    expect(await amount.locator('.diff-after').textContent()).toBe('7.25');
    await page.locator('[data-testid="diff-entry"][data-area="signature"]').first().waitFor();
    await screenshot(page, '11-composer-replayed-refund');
  });

  it('sends the REFUND of a captured pay from its detail, signed over the bytes shown', async () => {
    await capture('/platform/pay', JSON.stringify({ userId: 'user-8', depositId: 'dep-follow', currency: 'EUR', amount: 3 }));
    await goTo(page, 'captures');
    await rowOf('dep-follow').click();
    const payId = Number(await rowOf('dep-follow').getAttribute('data-id'));
    await page.locator(`[data-testid="detail-pane"][data-exchange-id="${payId}"] [data-testid="follow-up-REFUND"]`).waitFor();
    await page.getByTestId('follow-up-REFUND').click();
    await page.locator('[data-testid="composer-origin"][data-kind="follow-up"]').waitFor();
    expect(await page.getByTestId('composer-origin').textContent()).toContain(`REFUND for pay #${payId}`);
    const count = operator.requests.length;
    const sentId = await sendAndWait();
    expect(operator.requests.length).toBe(count + 1);
    const received = operator.requests.at(-1)!;
    expect(bodyOf(received)).toMatchObject({ result: 'REFUND', userId: 'user-8', depositId: 'dep-follow', currency: 'EUR' });
    expect(received.rawSignatureValid).toBe(true);
    expect(must(await stack.desk.getExchange(sentId)).sourceId).toBe(payId);
  });

  it('hand-crafts a pay from the template: findings show live at their field, raw bytes go out as typed', async () => {
    await goTo(page, 'composer');
    await page.getByTestId('composer-new').selectOption('pay');
    await page.locator('[data-testid="composer-origin"][data-kind="template"]').waitFor();
    await page.locator('[data-testid="composer-findings"][data-known="true"][data-pending="false"][data-count="0"]').waitFor();

    // A pretty-printed body with a string amount, pasted in raw mode: sent byte for byte.
    await page.getByTestId('body-mode-raw').click();
    await page.locator('[data-testid="body-editor"] .cm-content').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    const typed = '{\n  "userId": "crafted",\n  "depositId": "dep-crafted",\n  "currency": "EUR",\n  "amount": "5"\n}';
    await page.keyboard.insertText(typed);
    await page.getByTestId('body-mode-json').click();
    // The desk flags the string amount, and the editor marks it at its field.
    const finding = page.locator('[data-testid="composer-finding"][data-path="$.amount"]');
    await finding.waitFor();
    expect(await finding.getAttribute('data-level')).toBe('error');
    await page.locator('[data-testid="body-editor"] .cm-lintRange-error').first().waitFor();
    expect(await page.locator('[data-testid="body-editor"] .cm-lintRange-error').first().textContent()).toContain('"amount"');
    await screenshot(page, '12-composer-template-findings');

    await sendAndWait();
    const received = operator.requests.at(-1)!;
    expect(received.body.toString('utf8')).toBe(typed);
    expect(received.rawSignatureValid).toBe(true);
    expect(received.status).toBe(400); // the operator refuses the string amount, as it should
    expect(await page.getByTestId('sent-status').textContent()).toBe('400');
  });

  it('shows the header each signature mode yields, and sends with none or a custom secret on purpose', async () => {
    await page.getByTestId('signature-none').click();
    await page
      .locator('[data-testid="signature-panel"] [data-testid="signature-preview"][data-pending="false"]')
      .getByText('no x-server-authorization header')
      .waitFor();
    await sendAndWait();
    expect(operator.requests.at(-1)!.headers['x-server-authorization']).toBeUndefined();
    expect(operator.requests.at(-1)!.status).toBe(401);

    await page.getByTestId('signature-custom').click();
    await page.getByTestId('custom-secret').fill('another-secret-typed-once');
    await page.getByTestId('signature-preview-value').waitFor();
    await sendAndWait();
    expect(operator.requests.at(-1)!.rawSignatureValid).toBe(false);
    // The typed secret is nowhere in the page's HTML (an uncontrolled password input has no value attribute).
    expect(await page.content()).not.toContain('another-secret-typed-once');
    await page.getByTestId('signature-resign').click();
  });

  it('asks before sending to a production profile, naming the target; Cancel sends nothing', async () => {
    must(await stack.desk.saveProfile({ name: 'default', production: true }));
    await goTo(page, 'profiles');
    await goTo(page, 'composer');
    const count = operator.requests.length;
    await page.getByTestId('composer-send').click();
    await page.getByTestId('production-confirm').waitFor();
    expect(await page.getByTestId('production-target').textContent()).toBe(operator.url);
    expect(await page.getByTestId('production-confirm').textContent()).toContain('production');
    await screenshot(page, '13-composer-production-confirm');
    await page.getByTestId('confirm-cancel').click();
    expect(operator.requests.length).toBe(count);

    await page.getByTestId('composer-send').click();
    await page.getByTestId('confirm-ok').click();
    await page.locator('[data-testid="sent-pane"][data-exchange-id]').waitFor();
    await expect.poll(() => operator.requests.length).toBe(count + 1);
    must(await stack.desk.saveProfile({ name: 'default', production: false }));
  });

  it('copies the draft as a signed cURL that the operator accepts when run', async () => {
    await page.getByTestId('composer-new').selectOption('win');
    await page.locator('[data-testid="composer-origin"][data-kind="template"]').waitFor();
    await page.getByTestId('copy-signed-curl').click();
    const command = (await page.getByTestId('signed-curl-command').textContent())!;
    expect(command).toContain(`${operator.url}/platform/results`);
    expect(command).toContain('x-server-authorization');
    expect(command).not.toContain(TEST_SECRET);
    await page.getByTestId('signed-curl-dialog').getByRole('button', { name: 'Close' }).click();
    const count = operator.requests.length;
    await run('bash', ['-c', command]);
    expect(operator.requests.length).toBe(count + 1);
    expect(operator.requests.at(-1)!.rawSignatureValid).toBe(true);
    expect(bodyOf(operator.requests.at(-1)!).result).toBe('WIN');
  });

  it('sends the non-canonical JSON edge case in one click, then re-sends its exact bytes from the composer', async () => {
    await goTo(page, 'edge-cases');
    const card = page.locator('[data-testid="edge-case"][data-case="shape.spaced.pay"]');
    await card.waitFor();
    expect(await card.textContent()).toContain('raw bytes');
    const count = operator.requests.length;
    await card.getByTestId('edge-send').click();
    // The answer passes; its money rule is not observable without a balance probe, and says so.
    await card.locator('[data-testid="edge-verdict"][data-outcome="not-observable"]').waitFor();
    await card.locator('[data-testid="check-row"][data-check="shape.spaced.pay"][data-pass="true"]').waitFor();
    // The spaced pay, then the clean-up's REFUND of the deposit it left open.
    const sent = operator.requests.slice(count);
    expect(sent.map((r) => bodyOf(r).result ?? 'pay')).toEqual(['pay', 'REFUND']);
    const sentBytes = sent[0]!.body;
    expect(sentBytes.toString('utf8')).toMatch(/^\{\n {2}"userId"[\s\S]*\n\}\n$/);
    expect(sent[0]!.rawSignatureValid).toBe(true);

    // Its request opens beside the catalog, then in the composer.
    await card.getByTestId('edge-exchange').first().click();
    await page.locator('[data-testid="detail-pane"] [data-testid="signature-section"]').waitFor();
    await screenshot(page, '14-edge-case-sent');
    await card.getByTestId('edge-to-composer').first().click();
    await page.locator('[data-testid="composer-origin"][data-kind="capture"]').waitFor();
    await page.getByTestId('body-mode-raw').click();
    await page.locator('[data-testid="body-editor"] .cm-highlightSpace').first().waitFor();
    await page.locator('[data-testid="composer-findings"][data-known="true"]').waitFor();
    await page.getByTestId('signature-preview-value').waitFor();
    await screenshot(page, '15-composer-raw-bytes');
    await sendAndWait();
    // Not a byte re-formatted by the editor: the same pretty body with its trailing newline.
    expect(operator.requests.at(-1)!.body.equals(sentBytes)).toBe(true);
    expect(operator.requests.at(-1)!.rawSignatureValid).toBe(true);
    expect(operator.requests.at(-1)!.status).toBe(200);
  });

  it('raised no error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
