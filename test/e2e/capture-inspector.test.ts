// End to end in Chromium against the real web mode: a desk with its capture proxy (sandbox operator)
// and the web UI on 127.0.0.1 port 0. Callbacks go to the proxy over HTTP, exactly as the platform
// would send them; the page must show them live, explain them, and follow a deposit.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src-main/core/signing';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import { TEST_SECRET, sendCallback, type Stack } from './helpers/stack';

const run = promisify(execFile);

let session: E2eSession;
let stack: Stack;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  session = await openSession();
  ({ stack, page, pageErrors } = session);
}, 120_000);

afterAll(() => session?.close());

const rows = () => page.getByTestId('capture-row');
const rowOf = (depositId: string) => rows().filter({ has: page.getByTestId('row-deposit').getByText(depositId, { exact: true }) });

async function pay(depositId: string, signature: Parameters<typeof sendCallback>[3], fields: Record<string, unknown> = {}, proxyUrl = stack.proxyUrl) {
  const body = JSON.stringify({ userId: 'user-7', depositId, currency: 'EUR', amount: 5, ...fields });
  const res = await sendCallback(proxyUrl, '/platform/pay', body, signature);
  await res.arrayBuffer();
  return res;
}

async function results(depositId: string, result: 'WIN' | 'LOSE', amount = 9) {
  const body = JSON.stringify({ result, userId: 'user-7', depositId, roomId: 'room-1', gameId: 'blocks', currency: 'EUR', amount });
  const res = await sendCallback(stack.proxyUrl, '/platform/results', body, { secret: TEST_SECRET });
  await res.arrayBuffer();
  return res;
}

async function openRow(depositId: string): Promise<string> {
  const row = rowOf(depositId);
  await row.click();
  const id = (await row.getAttribute('data-id'))!;
  await page.locator(`[data-testid="detail-pane"][data-exchange-id="${id}"] [data-testid="signature-section"]`).waitFor();
  return id;
}

describe('the capture inspector in Chromium', () => {
  it('without the token, says where to find it, and asks the desk nothing', async () => {
    await page.goto(`http://127.0.0.1:${stack.ui.port}/`);
    await page.getByTestId('access-needed').waitFor();
    const text = (await page.getByTestId('access-needed').textContent())!;
    // The instruction once, and how a `show` link opens with the token.
    expect(text.split('ui:').length - 1, text).toBe(1);
    expect(text).toContain('#/exchange/42&token=');
    expect(stack.ui.stats().apiCalls).toBe(0);
    await screenshot(page, '00-no-token');
  });

  it('opens from the printed URL, drops the token from the address bar, and tells a newcomer what to do', async () => {
    // Pasting the ui: address into that tab changes only the fragment: the page must pick the token up.
    await page.goto(stack.ui.url);
    await page.getByTestId('captures-empty').waitFor();
    expect(page.url()).not.toContain('token');
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    expect(await page.getByTestId('proxy-url').textContent()).toBe(stack.proxyUrl);
    expect(await page.getByTestId('active-profile').textContent()).toBe('default');
    expect(await page.getByTestId('proxy-mode').textContent()).toContain('sandbox operator');
    const command = (await page.getByTestId('empty-curl').textContent())!;
    expect(command).toContain(`curl -X POST ${stack.proxyUrl}/platform/pay`);
    expect(command).toContain('openssl dgst -sha256 -hmac "$WD_SECRET"');
    await screenshot(page, '01-empty-state');

    // A reload keeps working: the token moved from the address bar into the tab's session.
    await page.reload();
    await page.getByTestId('captures-empty').waitFor();
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    expect(await page.getByTestId('connection-error').count()).toBe(0);
  });

  it("gives no command with a placeholder port while the desk's status is still on its way", async () => {
    const second = await session.browser.newPage({ viewport: { width: 1440, height: 900 } });
    second.setDefaultTimeout(8_000);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await second.route('**/api/getStatus', async (route) => {
      await released;
      await route.continue();
    });
    await second.goto(stack.ui.url);
    await second.getByTestId('captures-empty').waitFor();
    const pending = (await second.getByTestId('captures-empty').textContent())!;
    expect(pending).not.toContain('PORT');
    expect(pending).not.toContain('not running');
    expect(await second.getByTestId('empty-status-pending').count()).toBe(1);
    release();
    await expect.poll(() => second.getByTestId('empty-curl').count()).toBe(1);
    expect(await second.getByTestId('empty-curl').textContent()).toContain(`curl -X POST ${stack.proxyUrl}/platform/pay`);
    await second.close();
  });

  it("runs the empty state's command: the signed callback appears within a second, verified", async () => {
    const command = (await page.getByTestId('empty-curl').textContent())!;
    const { stdout } = await run('bash', ['-c', command], { env: { ...process.env, WD_SECRET: TEST_SECRET } });
    expect(stdout).toContain('"status":"ok"');
    const sentAt = Date.now();
    await rows().first().waitFor({ timeout: 1_000 });
    expect(Date.now() - sentAt).toBeLessThan(1_000);
    expect(await rows().first().getAttribute('data-verdict')).toBe('valid');
    expect(await rows().first().getByTestId('row-verdict').textContent()).toContain('valid');
  });

  it('shows signed, unsigned, mis-signed and malformed callbacks live, each verdict as a coloured word', async () => {
    const prettyBody = JSON.stringify({ userId: 'user-7', depositId: 'dep-pretty', currency: 'EUR', amount: 5 });
    const prettySignature = sign(new TextEncoder().encode(JSON.stringify(JSON.parse(prettyBody), null, 2)), TEST_SECRET);
    await pay('dep-valid', { secret: TEST_SECRET });
    await pay('dep-unsigned', null);
    await pay('dep-pretty', { header: prettySignature });
    await pay('dep-malformed', { header: 'not-a-signature' });
    await pay('dep-badtypes', { secret: TEST_SECRET }, { amount: '5' });

    const expected: Array<[string, string, string]> = [
      ['dep-valid', 'valid', 'valid'],
      ['dep-unsigned', 'missing', 'missing'],
      ['dep-pretty', 'mismatch', 'mismatch'],
      ['dep-malformed', 'malformed', 'malformed'],
      ['dep-badtypes', 'valid', 'valid'],
    ];
    for (const [depositId, verdict, word] of expected) {
      const row = rowOf(depositId);
      await row.waitFor({ timeout: 2_000 });
      expect(await row.getAttribute('data-verdict'), depositId).toBe(verdict);
      expect(await row.getByTestId('row-verdict').textContent(), depositId).toContain(word);
    }
    // Newest first.
    const ids = await rows().evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id'))));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    await screenshot(page, '02-live-captures');
  });

  it('opens a capture signed over its pretty-printed form: the diagnosis names it', async () => {
    await openRow('dep-pretty');
    expect(await page.getByTestId('detail-verdict').getAttribute('data-verdict')).toBe('mismatch');
    expect(await page.getByTestId('diagnosis-match').textContent()).toContain('pretty-printed with 2 spaces');
    expect(await page.getByTestId('diagnosis-summary').textContent()).toMatch(/signed .*pretty-printed/);
    expect(await page.getByTestId('request-line').textContent()).toBe('POST /platform/pay');
    expect(await page.getByTestId('request-headers').textContent()).toContain('x-server-authorization');
    await screenshot(page, '03-diagnosis');
  });

  it('shows protocol findings at their fields, and the raw bytes as sent', async () => {
    await openRow('dep-badtypes');
    const finding = page.locator('[data-testid="finding"][data-path="$.amount"]');
    expect(await finding.getAttribute('data-level')).toBe('error');
    const inline = page.locator('[data-testid="request-body-json"] [data-path="$.amount"] [data-testid="inline-finding"]');
    expect(await inline.textContent()).toContain('$.amount');
    await screenshot(page, '04-findings');
    await page.getByTestId('request-body-tab-raw').click();
    expect(await page.getByTestId('request-body-raw').textContent()).toBe(
      JSON.stringify({ userId: 'user-7', depositId: 'dep-badtypes', currency: 'EUR', amount: '5' }),
    );
  });

  it('moves the selection with the arrow keys and opens it with Enter', async () => {
    await page.getByTestId('capture-list').focus();
    await page.keyboard.press('Home');
    const first = await rows().nth(0).getAttribute('data-id');
    expect(await page.locator(`[data-testid="capture-row"][aria-selected="true"]`).getAttribute('data-id')).toBe(first);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const third = await rows().nth(2).getAttribute('data-id');
    expect(await page.locator(`[data-testid="capture-row"][aria-selected="true"]`).getAttribute('data-id')).toBe(third);
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="detail-pane"][data-exchange-id="${third}"] [data-testid="signature-section"]`).waitFor();
    await page.keyboard.press('ArrowUp');
    const second = await rows().nth(1).getAttribute('data-id');
    expect(await page.locator(`[data-testid="capture-row"][aria-selected="true"]`).getAttribute('data-id')).toBe(second);
  });

  it('filters by verdict and searches by depositId prefix', async () => {
    await page.getByTestId('filter-verdict').selectOption('missing');
    await expect.poll(() => rows().evaluateAll((els) => els.map((e) => e.getAttribute('data-verdict'))), { timeout: 8_000 }).toEqual(['missing']);
    await page.getByTestId('filter-clear').click();
    await page.getByTestId('filter-search').fill('dep-ma');
    await expect.poll(() => rows().count(), { timeout: 8_000 }).toBe(1);
    expect(await rows().first().getByTestId('row-deposit').textContent()).toBe('dep-malformed');
    // A live capture that does not match the filter stays out; one that matches comes in.
    await pay('dep-other', { secret: TEST_SECRET });
    await pay('dep-match-live', { secret: TEST_SECRET });
    await rowOf('dep-match-live').waitFor();
    expect(await rowOf('dep-other').count()).toBe(0);
    await page.getByTestId('filter-clear').click();
    await rowOf('dep-other').waitFor();
  });

  it("shows what the client SDK's handleError receives for a refused pay", async () => {
    const res = await pay('dep-broke', { secret: TEST_SECRET }, { amount: 5000 });
    expect(res.status).toBeGreaterThanOrEqual(400);
    await rowOf('dep-broke').waitFor();
    await openRow('dep-broke');
    const section = page.getByTestId('client-errors');
    expect(await section.textContent()).toContain('spec shape');
    expect(await page.getByTestId('client-errors-reaching').textContent()).toContain('INSUFFICIENT_BALANCE');
  });

  it('follows a deposit timeline, flagging duplicates and conflicting outcomes', async () => {
    await pay('dep-story', { secret: TEST_SECRET });
    await results('dep-story', 'WIN');
    await results('dep-story', 'LOSE');
    await pay('dep-story', { secret: TEST_SECRET });
    await rows().filter({ hasText: 'dep-story' }).nth(3).waitFor();
    const payRow = rowOf('dep-story').filter({ hasText: 'pay' }).last();
    await payRow.click();
    await page.getByTestId('open-timeline').click();
    await page.locator('[data-testid="timeline"][data-deposit="dep-story"]').waitFor();
    const entries = page.getByTestId('timeline-entry');
    expect(await entries.count()).toBe(4);
    const ids = await entries.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id'))));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const flags = await page.getByTestId('timeline-flag').evaluateAll((els) => els.map((e) => e.getAttribute('data-flag')));
    expect(flags).toEqual(expect.arrayContaining(['duplicate-pay', 'duplicate-results', 'conflicting-outcomes']));
    await entries.nth(2).click();
    await page.locator(`[data-testid="detail-pane"][data-exchange-id="${ids[2]}"] [data-testid="signature-section"]`).waitFor();
    await screenshot(page, '05-timeline');

    // A result for a deposit whose pay was never seen.
    await results('dep-orphan', 'WIN');
    await page.getByTestId('timeline-input').fill('dep-orphan');
    await page.getByTestId('timeline-input').press('Enter');
    await page.locator('[data-testid="timeline"][data-deposit="dep-orphan"] [data-flag="results-without-pay"]').waitFor();
    // The timeline is live too.
    await pay('dep-orphan', { secret: TEST_SECRET });
    await expect.poll(() => page.getByTestId('timeline-entry').count(), { timeout: 8_000 }).toBe(2);
    await page.getByTestId('nav-captures').click();
  });

  it('copies a capture as cURL with the exact body and its signature header', async () => {
    await openRow('dep-valid');
    await page.getByTestId('copy-curl').click();
    await page.getByTestId('curl-command').waitFor();
    const command = (await page.getByTestId('curl-command').textContent())!;
    expect(command).toContain('x-server-authorization');
    expect(command).toContain('/platform/pay');
    expect(command).toContain('dep-valid');
  });

  it('changes the port and upstream from the status bar; a refusal with a wrong error body is flagged', async () => {
    const operator: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            errors: [
              { code: 'LIMIT_REACHED', isClientSafe: 'yes' },
              { code: 'KYC_PENDING', isClientSafe: false },
            ],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => operator.listen(0, '127.0.0.1', resolve));
    try {
      const upstream = `http://127.0.0.1:${(operator.address() as AddressInfo).port}`;
      await page.getByTestId('proxy-edit').click();
      await page.getByTestId('proxy-port').fill('0');
      await page.getByTestId('proxy-upstream').fill(upstream);
      await page.getByTestId('proxy-apply').click();
      await page.getByTestId('proxy-mode').getByText(upstream).waitFor();
      const proxyUrl = (await page.getByTestId('proxy-url').textContent())!;
      expect(proxyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const res = await pay('dep-forwarded', { secret: TEST_SECRET }, {}, proxyUrl);
      expect(res.status).toBe(403);
      await rowOf('dep-forwarded').waitFor();
      await rowOf('dep-forwarded').getByText('403', { exact: true }).waitFor();
      await openRow('dep-forwarded');
      const section = page.getByTestId('client-errors');
      expect(await section.textContent()).toContain('wrong shape');
      expect(await page.getByTestId('client-errors-withheld').textContent()).toContain('LIMIT_REACHED');
      expect(await page.getByTestId('client-errors-withheld').textContent()).toContain('KYC_PENDING');
      expect(await page.getByTestId('client-errors-shape').textContent()).toContain('isClientSafe must be the boolean');
      await screenshot(page, '06-refused-pay-wrong-shape');

      await page.getByTestId('proxy-stop').click();
      await page.locator('[data-testid="proxy-state"][data-running="false"]').waitFor();
      // Started again on port 0: the Start button's default port (8787) may belong to a desk running here.
      await page.getByTestId('proxy-edit').click();
      await page.getByTestId('proxy-port').fill('0');
      await page.getByTestId('proxy-apply').click();
      await page.locator('[data-testid="proxy-state"][data-running="true"]').waitFor();
    } finally {
      await new Promise<void>((resolve) => operator.close(() => resolve()));
    }
  });

  it('raised no error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
