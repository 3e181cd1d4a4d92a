// What a person sees at a glance, in Chromium at 1280x800 and 1440x900: the bad news is on screen
// (an operator that accepted a badly signed callback, an answer the desk made itself, a deposit whose
// money does not add up), nothing is cut (no list cell, no detail heading), the split between list
// and detail can be moved and stays moved, the theme follows the system or the toggle, and the
// composer shows what Send changes before it sends.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { must } from '../helpers/must';
import { startOperator, type StandInOperator } from '../helpers/operator';
import { startRecorder } from '../helpers/servers';
import { screenshot } from './helpers/browser';
import { goTo, openApp } from './helpers/app';
import { openSession, type E2eSession } from './helpers/session';
import { TEST_SECRET, sendCallback, type Stack } from './helpers/stack';
import { exchangesOf } from '../helpers/log-reads';
import { logOf } from '../helpers/desk';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
] as const;

const LONG_CHECK_ID = 'wd-check-20260101T000000-7f3a-refund-unknown-42';

let session: E2eSession;
let stack: Stack;
let page: Page;
let operator: StandInOperator;
let deadUpstream: string;
const ids: Record<string, number> = {};

async function post(
  path: '/platform/pay' | '/platform/results',
  fields: Record<string, unknown>,
  signature: Parameters<typeof sendCallback>[3] = { secret: TEST_SECRET },
): Promise<number> {
  const res = await sendCallback(stack.proxyUrl, path, JSON.stringify(fields), signature);
  await res.arrayBuffer();
  return (await exchangesOf(stack.desk, { limit: 1 }))[0]!.id;
}

const payOf = (depositId: string, amount = 5) => ({ userId: 'user-7', depositId, currency: 'EUR', amount });
const resultOf = (depositId: string, result: string, amount: number) => ({
  result,
  userId: 'user-7',
  depositId,
  roomId: 'room-1',
  gameId: 'blocks',
  currency: 'EUR',
  amount,
});

async function forwardTo(upstream: string | null): Promise<void> {
  const status = must(await stack.desk.startProxy({ port: 0, upstream }));
  stack.proxyUrl = status.proxy.url!;
}

beforeAll(async () => {
  // No profile at first: the first capture is recorded with no secret to check it with.
  session = await openSession({ secret: null });
  ({ stack, page } = session);
  operator = await startOperator({ secret: TEST_SECRET, defects: { acceptsAnyWellFormedSignature: true } });
  const dead = await startRecorder();
  deadUpstream = dead.url;
  await dead.close();

  ids.noSecret = await post('/platform/pay', payOf('dep-before-secret'));
  must(await stack.desk.saveProfile({ name: 'default', secret: TEST_SECRET, operatorUrl: operator.url }));
  must(await stack.desk.useProfile('default'));

  // An operator that checks only the signature's format: it accepts a wrong one with a 200.
  await forwardTo(operator.url);
  ids.acceptedBad = await post('/platform/pay', payOf('dep-bad-sig'), { header: 'ab'.repeat(32) });
  ids.refundPay = await post('/platform/pay', payOf('dep-refunds'));
  ids.refund = await post('/platform/results', resultOf('dep-refunds', 'REFUND', 5));
  await post('/platform/results', resultOf('dep-refunds', 'REFUND', 7));
  await post('/platform/results', resultOf('dep-refunds', 'REFUND', 9));
  await post('/platform/results', resultOf('dep-refunds', 'REFUND', 9));
  await post('/platform/results', resultOf('dep-refunds', 'WIN', 12));
  // A result whose body breaks the interface: its error count shows beside the kind, the result stays readable.
  ids.withErrors = await post('/platform/results', { ...resultOf('dep-errors', 'REFUND', 5), amount: '5' });
  // A replay whose depositId was changed: filed under the id its body names, linked to its source.
  ids.movedReplay = must(await stack.desk.replay({ sourceId: ids.refund, set: [{ path: 'depositId', value: LONG_CHECK_ID }] })).id;

  // The operator is down: the desk answers 502 in its place.
  await forwardTo(deadUpstream);
  ids.deskAnswer = await post('/platform/pay', payOf('dep-operator-down'));
  await forwardTo(null);
  // A fault the desk injects: the sandbox is not asked, the desk answers 503 itself.
  ids.fault = must(await stack.desk.addFault({ path: 'pay', action: { type: 'status', status: 503 }, count: 1 })).id;
  ids.faulted = await post('/platform/pay', payOf('dep-faulted'));
  await openApp(page, stack);
  // The desk's own requests too: the replay is an outbound row.
  await page.getByTestId('filter-outbound').check();
  await page.locator(`[data-testid="capture-row"][data-id="${ids.movedReplay}"]`).waitFor();
}, 120_000);

afterAll(async () => {
  await operator?.close();
  await session?.close();
});

const rowOf = (id: number) => page.locator(`[data-testid="capture-row"][data-id="${id}"]`);

async function openRow(id: number): Promise<void> {
  await rowOf(id).click();
  await page.locator(`[data-testid="detail-pane"][data-exchange-id="${id}"] [data-testid="signature-section"]`).waitFor();
  await page.locator('[data-testid="detail-deposit-flags"]').waitFor();
}

/** Elements (by selector) whose content is wider than their box: cut text. */
async function cutElements(selector: string): Promise<string[]> {
  return page.$$eval(selector, (els) =>
    els
      .filter((el) => el.getClientRects().length > 0 && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.className}: ${(el.textContent ?? '').slice(0, 60)} (${el.scrollWidth} > ${el.clientWidth})`),
  );
}

/** Cells that stick out of the list on the right (a column pushed past the edge). */
async function cellsPastTheEdge(): Promise<string[]> {
  const list = (await page.getByTestId('capture-list').boundingBox())!;
  return page.$$eval(
    '[data-testid="capture-row"] .cell',
    (cells, right) => cells.filter((c) => c.getBoundingClientRect().right > right + 1).map((c) => c.textContent ?? ''),
    list.x + list.width,
  );
}

describe('the UI tells the truth at a glance', () => {
  for (const size of SIZES) {
    const tag = `${size.width}x${size.height}`;

    it(`${tag}: no list cell and no detail heading is cut, the status column shows with the detail open`, async () => {
      await page.setViewportSize(size);
      await goTo(page, 'captures');
      await openRow(ids.acceptedBad!);
      expect(await cutElements('[data-testid="capture-row"] .cell, [data-testid="capture-row"] .cell > *, .capture-header > span')).toEqual([]);
      expect(await cutElements('.detail-pane h3, .detail-pane h4, .detail-title, .detail-sub, .detail-title > *')).toEqual([]);
      expect(await cellsPastTheEdge()).toEqual([]);
      // Every row's status is on screen, and the kind and result read whole.
      const statuses = await page.getByTestId('row-status').count();
      expect(statuses).toBe(await page.getByTestId('capture-row').count());
      expect(await rowOf(ids.refund!).getByTestId('row-kind').innerText()).toContain('results · REFUND');
      expect(await rowOf(ids.withErrors!).getByTestId('row-kind').innerText()).toContain('results · REFUND');
      expect(await rowOf(ids.withErrors!).getByTestId('row-errors').isVisible()).toBe(true);
      // The outbound replay's long id keeps the end that tells checks apart, the whole id in the tooltip.
      const moved = rowOf(ids.movedReplay!).getByTestId('row-deposit');
      expect(await moved.getAttribute('title')).toBe(LONG_CHECK_ID);
      // Cut in the middle: its start and its end, which tell ids of one run apart, both show.
      expect(await moved.innerText()).toMatch(/^wd-.*….*known-42$/);
      await screenshot(page, `glance-captures-${tag}`);
    });

    it(`${tag}: the operator that accepted a badly signed callback is flagged in the list and the detail`, async () => {
      await page.setViewportSize(size);
      await goTo(page, 'captures');
      const marker = rowOf(ids.acceptedBad!).getByTestId('row-status');
      expect(await marker.getAttribute('data-accepted-bad')).toBe('mismatch');
      expect(await marker.getAttribute('title')).toContain('the operator accepted a callback whose signature does not match its body');
      await openRow(ids.acceptedBad!);
      expect(await page.getByTestId('warning-accepted-bad').innerText()).toContain('the operator accepted a callback whose signature does not match its body');
      // A good capture raises no such warning.
      await openRow(ids.refundPay!);
      expect(await page.getByTestId('warning-accepted-bad').count()).toBe(0);
      expect(await rowOf(ids.refundPay!).getByTestId('row-status').getAttribute('data-accepted-bad')).toBeNull();
    });

    it(`${tag}: an answer the desk made itself is the desk's, with its cause in words`, async () => {
      await page.setViewportSize(size);
      await goTo(page, 'captures');
      const status = rowOf(ids.deskAnswer!).getByTestId('row-status');
      expect(await status.innerText()).toBe('desk 502');
      expect(await status.getAttribute('data-answered-by')).toBe('desk');
      await openRow(ids.deskAnswer!);
      const port = new URL(deadUpstream).port;
      expect(await page.getByTestId('warning-desk-answer').innerText()).toContain(
        `the desk could not reach the operator at 127.0.0.1:${port}: connection refused`,
      );
      expect(await page.getByTestId('detail-status').innerText()).toBe('desk 502');
      await screenshot(page, `glance-desk-answer-${tag}`);
    });

    it(`${tag}: the deposit's anomalies show in the detail and the timeline; the replay is filed under its own deposit`, async () => {
      await page.setViewportSize(size);
      await goTo(page, 'captures');
      await openRow(ids.refund!);
      const flags = await page.getByTestId('detail-deposit-flag').evaluateAll((els) => els.map((e) => e.getAttribute('data-flag')));
      expect(flags).toEqual(expect.arrayContaining(['amount-differs', 'credit-and-refund', 'conflicting-outcomes']));
      await page.getByTestId('open-timeline').click();
      await page.locator('[data-testid="timeline"][data-deposit="dep-refunds"]').waitFor();
      const timelineFlags = await page.getByTestId('timeline-flag').evaluateAll((els) => els.map((e) => e.getAttribute('data-flag')));
      expect(timelineFlags).toEqual(expect.arrayContaining(['amount-differs', 'credit-and-refund', 'conflicting-outcomes']));
      expect(await page.getByTestId('timeline-ok').count()).toBe(0);
      const entries = await page.getByTestId('timeline-entry').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id'))));
      expect(entries).not.toContain(ids.movedReplay);
      expect(await cutElements('.timeline-title, .timeline-line, .timeline-card, .timeline-flags, .flag-list li')).toEqual([]);
      await screenshot(page, `glance-timeline-${tag}`);

      // The replay's own deposit: it is there, linked to its source.
      await page.getByTestId('timeline-input').fill(LONG_CHECK_ID);
      await page.getByTestId('timeline-input').press('Enter');
      await page.locator(`[data-testid="timeline"][data-deposit="${LONG_CHECK_ID}"]`).waitFor();
      expect(await page.getByTestId('timeline-source').getAttribute('data-id')).toBe(String(ids.refund));

      // A clean deposit says so.
      await page.getByTestId('timeline-input').fill('dep-bad-sig');
      await page.getByTestId('timeline-input').press('Enter');
      await page.locator('[data-testid="timeline"][data-deposit="dep-bad-sig"]').waitFor();
      expect(await page.getByTestId('timeline-flag').getAttribute('data-flag')).toBe('accepted-bad-signature');
    });
  }

  for (const size of SIZES) {
    it(`${size.width}x${size.height}: every screen shows its title, headings and buttons whole`, async () => {
      await page.setViewportSize(size);
      for (const view of ['captures', 'timeline', 'composer', 'edge-cases', 'checks', 'tokens', 'profiles', 'sandbox']) {
        await goTo(page, view);
        expect(await cutElements('.main h2, .main h3, .main h4, .main .btn, .status-bar .status-item, .topbar .nav-item, .capture-header > span')).toEqual([]);
        await screenshot(page, `glance-screen-${view}-${size.width}x${size.height}`);
      }
    });
  }

  it("a faulted answer is the desk's, with its fault, in the list, the detail and the timeline; its note is not drawn in the request body", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await goTo(page, 'captures');
    const status = rowOf(ids.faulted!).getByTestId('row-status');
    expect(await status.innerText()).toBe('desk 503');
    expect(await status.getAttribute('data-answered-by')).toBe('desk');
    expect(await status.getAttribute('title')).toContain(`the desk injected fault ${ids.fault} (answer 503)`);
    await openRow(ids.faulted!);
    expect(await page.getByTestId('detail-status').innerText()).toBe('desk 503');
    expect(await page.getByTestId('warning-desk-answer').innerText()).toContain(
      `The desk answered 503 itself, not the operator: the desk injected fault ${ids.fault}`,
    );
    // The note is the answer's: in the Response section, not at the body's root nor among the protocol findings.
    const response = page.getByTestId('response-section');
    expect(await response.getByTestId('response-desk-answer').innerText()).toContain(`fault ${ids.fault} (answer 503)`);
    expect(await response.getByTestId('response-fault-note').innerText()).toContain(`fault ${ids.fault}: answer 503 was applied`);
    expect(await page.getByTestId('request-section').innerText()).not.toContain('was applied');
    expect(await page.getByTestId('findings-section').innerText()).not.toContain('was applied');
    await screenshot(page, 'glance-faulted-answer');

    await page.getByTestId('open-timeline').click();
    await page.locator('[data-testid="timeline"][data-deposit="dep-faulted"]').waitFor();
    expect(await page.getByTestId('timeline-desk-cause').innerText()).toContain(`Answered by the desk, not the operator: the desk injected fault ${ids.fault}`);
  });

  it('the no-secret text follows the profile: the profile has a secret now', async () => {
    await goTo(page, 'captures');
    await openRow(ids.noSecret!);
    const text = await page.getByTestId('verdict-explanation').innerText();
    expect(text).toContain('recorded before profile “default” had a signing secret');
    expect(text).not.toContain('The desk has no signing secret');
  });

  it('moves the split between list and detail, and keeps it after a reload', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await goTo(page, 'captures');
    const handle = page.getByTestId('split-handle');
    const before = (await handle.boundingBox())!;
    await page.mouse.move(before.x + 3, before.y + 200);
    await page.mouse.down();
    await page.mouse.move(before.x + 103, before.y + 200, { steps: 5 });
    await page.mouse.up();
    const moved = (await handle.boundingBox())!;
    expect(Math.round(moved.x - before.x)).toBe(100);
    await page.reload();
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    await page.getByTestId('capture-row').first().waitFor();
    expect(Math.round((await page.getByTestId('split-handle').boundingBox())!.x)).toBe(Math.round(moved.x));
    // The list never gets narrower than its columns: dragged far left, it stops.
    const now = (await page.getByTestId('split-handle').boundingBox())!;
    await page.mouse.move(now.x + 3, now.y + 200);
    await page.mouse.down();
    await page.mouse.move(50, now.y + 200, { steps: 5 });
    await page.mouse.up();
    expect(await cellsPastTheEdge()).toEqual([]);
    expect(await cutElements('[data-testid="capture-row"] .cell')).toEqual([]);
  });

  it('follows the system theme, and the toggle chooses dark or light', async () => {
    const background = () => page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
    await page.emulateMedia({ colorScheme: 'dark' });
    const systemDark = await background();
    await page.emulateMedia({ colorScheme: 'light' });
    const systemLight = await background();
    expect(systemDark).not.toBe(systemLight);
    await page.getByTestId('theme-toggle').click();
    expect(await page.getByTestId('theme-toggle').getAttribute('data-theme-choice')).toBe('dark');
    expect(await background()).toBe(systemDark);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await openRow(ids.acceptedBad!);
      await screenshot(page, `glance-dark-${size.width}x${size.height}`);
    }
    await page.getByTestId('theme-toggle').click();
    expect(await background()).toBe(systemLight);
    await page.getByTestId('theme-toggle').click();
    expect(await page.getByTestId('theme-toggle').getAttribute('data-theme-choice')).toBe('system');
  });

  it('the composer shows what Send changes before it sends, and wraps JSON between tokens', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await goTo(page, 'captures');
    await openRow(ids.refund!);
    await page.getByTestId('edit-and-replay').click();
    await page.getByTestId('draft-editor').waitFor();
    expect(await page.getByTestId('pending-diff').getAttribute('data-count')).toBe('0');
    const body = JSON.stringify({
      ...resultOf('dep-refunds', 'REFUND', 5),
      depositId: LONG_CHECK_ID,
      note: 'a string long enough to reach past the edge of the editor',
    });
    const editor = page.locator('[data-testid="body-editor"] .cm-content');
    await editor.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(body);
    const entry = page.locator('[data-testid="pending-diff-entry"][data-path="$.depositId"]');
    await entry.waitFor();
    expect(await entry.locator('.diff-before').innerText()).toBe('dep-refunds');
    expect(await entry.locator('.diff-after').innerText()).toBe(LONG_CHECK_ID);
    // Nothing was sent: the diff is of the draft, not of an exchange.
    expect(await page.getByTestId('sent-pane').locator('[data-testid="diff-entry"]').count()).toBe(0);
    // The long line wraps, and no short string is broken across two lines.
    const broken = await page.$$eval('[data-testid="body-editor"] .cm-json-whole', (spans) =>
      spans.filter((s) => s.getClientRects().length > 1).map((s) => s.textContent),
    );
    expect(broken).toEqual([]);
    const lineBoxes = await page.$eval('[data-testid="body-editor"] .cm-line', (line) => line.getClientRects().length);
    expect(lineBoxes).toBeGreaterThan(0);
    const lineHeight = await page.$eval('[data-testid="body-editor"] .cm-line', (line) => line.getBoundingClientRect().height);
    expect(lineHeight).toBeGreaterThan(30);
    expect(await cutElements('.composer-origin-line, .screen-title, .block-title, .diff-table td, .diff-table th')).toEqual([]);
    await screenshot(page, 'glance-composer-1280x800');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'glance-composer-dark-1280x800');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows the production mark in the status bar', async () => {
    expect(await page.getByTestId('production-mark').count()).toBe(0);
    must(await stack.desk.saveProfile({ name: 'default', production: true }));
    await page.reload();
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    await page.getByTestId('production-mark').waitFor();
    await screenshot(page, 'glance-production-1280x800');
  });

  it('follows a burst of captures in the status bar without asking for the status again', async () => {
    const asked: string[] = [];
    const listener = (r: { url(): string }) => {
      if (r.url().endsWith('/api/getStatus')) asked.push(r.url());
    };
    page.on('request', listener);
    const before = (await logOf(stack.desk).counts()).inbound;
    for (let i = 0; i < 5; i++) await post('/platform/pay', payOf(`dep-burst-${i}`));
    await page
      .getByTestId('counts')
      .getByText(`${(before + 5).toLocaleString('en-US')} captured`)
      .waitFor();
    page.off('request', listener);
    expect(asked).toEqual([]);
  });

  it('raised no error in the page', () => {
    expect(session.pageErrors).toEqual([]);
  });
});
