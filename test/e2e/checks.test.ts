// The conformance check in Chromium, through the web mode: against a correct stand-in operator (every
// observable check passes) and a broken one (it verifies the signature over re-serialized JSON and
// writes isClientSafe as a string), watching the progress check by check, reading the evidence of
// the difference, opening a step's exchange, exporting the report, reopening a past one.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOperator, type StandInOperator } from '../helpers/operator';
import { goTo, openApp } from './helpers/app';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import { startGatedFront, type GatedFront } from './helpers/gated-front';
import { must } from '../helpers/must';
import { TEST_SECRET, type Stack } from './helpers/stack';

let session: E2eSession;
let stack: Stack;
let good: StandInOperator;
let broken: StandInOperator;
let front: GatedFront;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  session = await openSession({ stepTimeoutMs: 30_000 });
  ({ stack, page, pageErrors } = session);
  good = await startOperator({ secret: TEST_SECRET });
  broken = await startOperator({ secret: TEST_SECRET, defects: { reserializesBeforeVerifying: true, stringIsClientSafe: true } });
  // Four requests reach the broken operator at once; the rest wait until the test has seen the progress.
  front = await startGatedFront(broken.url, 4);
  must(await stack.desk.saveProfile({ name: 'default', operatorUrl: good.url }));
}, 120_000);

afterAll(async () => {
  await front?.close();
  await good?.close();
  await broken?.close();
  await session?.close();
});

const row = (id: string) => page.locator(`[data-testid="check-report"] [data-testid="check-row"][data-check="${id}"]`);
let firstReport = 0;

// A run is the whole generated matrix: a few seconds, minutes on a loaded machine.
describe('the conformance check in Chromium', { timeout: 240_000 }, () => {
  it("runs against the profile's operator with the prefilled test user: every observable check passes", async () => {
    await openApp(page, stack);
    await goTo(page, 'checks');
    expect(await page.getByTestId('check-target-profile-url').textContent()).toBe(good.url);
    expect(await page.getByTestId('check-user').inputValue()).not.toBe('');
    await page.getByTestId('check-run').click();
    const report = page.locator('[data-testid="check-report"]');
    // The whole matrix: a few seconds, more on a loaded machine.
    await report.waitFor({ timeout: 120_000 });
    firstReport = Number(await report.getAttribute('data-report'));
    expect(await page.getByTestId('report-failed').textContent()).toBe('0 failed');
    expect(await page.getByTestId('report-target').textContent()).toBe(good.url);
    expect(await row('shape.all-at-once.pay').getAttribute('data-pass')).toBe('true');
    expect(await row('pay.refused.insufficient-balance').getAttribute('data-pass')).toBe('true');
    expect(await page.locator('[data-testid="check-report"] [data-testid="check-row"][data-pass="null"]').count()).toBeGreaterThan(0);
    expect(good.requests.length).toBeGreaterThan(10);
    await screenshot(page, '20-check-correct-operator');
  });

  it('runs against a broken operator typed in, showing each check as it finishes', async () => {
    await page.getByTestId('check-target-url').fill(front.url);
    expect(await page.getByTestId('check-target-url-mode').isChecked()).toBe(true);
    await page.getByTestId('check-run').click();
    // The first four requests are answered (the valid pay and the clean-up's REFUND of it, then the pay
    // and WIN of the valid WIN); the fifth waits at the gate: the page shows those two checks, each with
    // its answer and its money.
    await page.locator('[data-testid="check-progress"] [data-testid="check-row"]').nth(3).waitFor();
    expect(await page.locator('[data-testid="check-progress"] [data-testid="check-row"]').count()).toBe(4);
    expect(await page.locator('[data-testid="check-progress"] [data-testid="check-row"]').first().getAttribute('data-check')).toBe('pay.valid');
    await screenshot(page, '21-check-progress');
    front.release();

    await page.locator(`[data-testid="check-report"]:not([data-report="${firstReport}"])`).waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('report-target').textContent()).toBe(front.url);
    expect(await page.getByTestId('report-failed').textContent()).not.toBe('0 failed');

    // The difference, with its evidence: expected against what came back.
    const canonical = row('shape.all-at-once.pay');
    expect(await canonical.getAttribute('data-pass')).toBe('false');
    expect(await canonical.getByTestId('evidence-expected').textContent()).toContain('2XX');
    expect(await canonical.getByTestId('evidence-actual').textContent()).toContain('401');
    expect(await canonical.getByTestId('evidence-actual').textContent()).toContain('INVALID_SIGNATURE');
    const errorBody = row('pay.refused.insufficient-balance');
    expect(await errorBody.getAttribute('data-pass')).toBe('false');
    expect(await errorBody.getByTestId('evidence-reason').textContent()).toContain('isClientSafe');
    expect(await errorBody.getByTestId('evidence-client').textContent()).toMatch(/^nothing reaches handleError/);
    expect(await row('pay.valid').getByTestId('check-rule').textContent()).toBe('§4.1');
    expect(await row('pay.valid.money').getByTestId('check-not-observable').textContent()).toContain('--balance-url');
    // What the broken operator still gets right passes here too.
    expect(await row('pay.valid').getAttribute('data-pass')).toBe('true');
    expect(await row('signature.wrong-value.pay').getAttribute('data-pass')).toBe('true');
    await screenshot(page, '22-check-broken-operator');
  });

  it("opens a failed step's exchange beside the report", async () => {
    const link = row('shape.all-at-once.pay').getByTestId('check-exchange').first();
    const id = await link.getAttribute('data-id');
    await link.click();
    await page.locator(`[data-testid="detail-pane"][data-exchange-id="${id}"] [data-testid="response-section"]`).waitFor();
    expect(await page.locator('[data-testid="detail-pane"] [data-testid="response-section"]').textContent()).toContain('401');
  });

  it('exports the report as Markdown, JSON, JUnit and HTML files', async () => {
    const [md] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-download-md').click()]);
    expect(md.suggestedFilename()).toMatch(/^conformance-\d+-\d{4}-\d\d-\d\d\.md$/);
    const markdown = await readFile((await md.path())!, 'utf8');
    expect(markdown).toContain('# Conformance check #');
    expect(markdown).toContain('FAIL shape.all-at-once.pay');
    expect(markdown).toContain(front.url);
    expect(markdown).not.toContain(TEST_SECRET);

    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-download-json').click()]);
    const report = JSON.parse(await readFile((await json.path())!, 'utf8')) as { failed: number; target: string };
    expect(report.target).toBe(front.url);
    expect(report.failed).toBeGreaterThan(0);

    const [junit] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-download-junit').click()]);
    expect(junit.suggestedFilename()).toMatch(/^conformance-\d+-\d{4}-\d\d-\d\d\.junit\.xml$/);
    const xml = await readFile((await junit.path())!, 'utf8');
    expect(xml).toContain(`failures="${report.failed}"`);
    expect(xml).toContain('<failure type="fail"');

    const [html] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-download-html').click()]);
    expect(html.suggestedFilename()).toMatch(/^conformance-\d+-\d{4}-\d\d-\d\d\.html$/);
    const pageText = await readFile((await html.path())!, 'utf8');
    expect(pageText).toContain('data-check-id="shape.all-at-once.pay" data-outcome="fail"');
    expect(pageText).not.toContain(TEST_SECRET);
  });

  it('lists past reports and reopens the first one', async () => {
    const past = page.getByTestId('past-report');
    expect(await past.count()).toBe(2);
    await page.locator(`[data-testid="past-report"][data-report="${firstReport}"]`).click();
    await page.locator(`[data-testid="check-report"][data-report="${firstReport}"]`).waitFor();
    expect(await row('shape.all-at-once.pay').getAttribute('data-pass')).toBe('true');
    expect(await page.getByTestId('report-failed').textContent()).toBe('0 failed');
  });

  it('raised no error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
