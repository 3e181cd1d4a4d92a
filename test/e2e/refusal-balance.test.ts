// In Chromium: a forwarded capture that the operator refused although its signature is valid offers
// "Why was it refused?", which probes the operator (an Express-style one that verifies
// JSON.stringify(req.body)) and names compact JSON; the profile form sets a balance probe whose header
// value is write-only (shown by its fingerprint, never sent back to the page), and its URL's query values
// are shown masked: the form keeps or replaces them without the page ever holding them again.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src-main/core/signing';
import { secretsOf } from '../helpers/desk';
import { must } from '../helpers/must';
import { startRecorder, type Recorder } from '../helpers/servers';
import { expressAnswer } from '../integration/refusal/operators';
import { goTo, openApp } from './helpers/app';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import { TEST_SECRET, sendCallback, type Stack } from './helpers/stack';
import { exchangesOf } from '../helpers/log-reads';

const CREDENTIAL = 'e2e-probe-token-64ac1d';
const PROBE_KEY = 'e2e-probe-signing-key-0b77e5';
const QUERY_VALUE = 'e2e-probe-query-key-5d21f0';
const TYPED_VALUE = 'e2e-probe-query-new-93ce4a';
let session: E2eSession;
let stack: Stack;
let page: Page;
let operator: Recorder;
let refusedId: number;
const apiTraffic: string[] = [];

beforeAll(async () => {
  session = await openSession();
  ({ stack, page } = session);
  // The stand-in operator serves the whole file: closed in afterAll.
  operator = await startRecorder(expressAnswer(TEST_SECRET));
  must(await stack.desk.saveProfile({ name: 'default', upstream: operator.url }));
  must(await stack.desk.startProxy({ upstream: operator.url }));
  const spaced = '{"userId": "user-9", "depositId": "dep-refused", "currency": "EUR", "amount": 5}';
  const res = await sendCallback(must(await stack.desk.getStatus()).proxy.url!, '/platform/pay', spaced, { secret: TEST_SECRET });
  expect(res.status).toBe(401);
  await res.arrayBuffer();
  refusedId = (await exchangesOf(stack.desk, { limit: 1 }))[0]!.id;
  page.on('response', (r) => {
    if (r.url().includes('/api/') && !r.url().endsWith('/api/events'))
      void r.text().then(
        (t) => apiTraffic.push(t),
        () => 0,
      );
  });
  page.on('request', (r) => apiTraffic.push(r.postData() ?? ''));
  await openApp(page, stack);
}, 120_000);

afterAll(async () => {
  await operator?.close();
  await session?.close();
});

describe('why the operator refused, and the balance probe, in Chromium', () => {
  it('explains a forwarded capture refused with a valid signature, on demand', async () => {
    await page.locator(`[data-testid="capture-row"][data-id="${refusedId}"]`).click();
    const pane = page.locator(`[data-testid="detail-pane"][data-exchange-id="${refusedId}"]`);
    await pane.getByTestId('refusal-section').waitFor();
    // Nothing is sent before the click.
    expect(operator.received.length).toBe(1);
    await pane.getByTestId('explain-refusal').click();
    const explanation = pane.locator('[data-testid="refusal-explanation"][data-finding="reserialization"]');
    await explanation.waitFor({ timeout: 20_000 });
    expect(await explanation.innerText()).toContain(
      "The operator verifies a re-serialization of the body (compact JSON, like JSON.stringify(req.body)), not the bytes received; the platform's bytes will be refused whenever they are not compact",
    );
    expect(await pane.locator('[data-testid="refusal-probe"][data-accepted="true"]').getAttribute('data-variant')).toBe('compact-json');
    expect(operator.received.length).toBe(3);
    await screenshot(page, 'refusal-explained');
  });

  it('sets a balance probe from the profile form; the header value is write-only', async () => {
    await goTo(page, 'profiles');
    await page.locator('[data-testid="profile-card"][data-name="default"]').click();
    const editor = page.getByTestId('profile-editor');
    await editor.getByTestId('profile-balance-url').fill(`${operator.url}/test/balance/{userId}`);
    await editor.getByTestId('profile-balance-path').fill('$.data.balance');
    await editor.getByTestId('profile-balance-units').selectOption('major');
    await editor.getByTestId('profile-balance-headers').fill(`X-Staging-Token: ${CREDENTIAL}`);
    await editor.getByTestId('profile-save').click();
    await editor.locator('[data-testid="profile-balance-header-state"][data-name="X-Staging-Token"]').getByText(fingerprint(CREDENTIAL)).waitFor();
    await expect.poll(() => editor.getByTestId('profile-balance-headers').inputValue()).toBe('');
    const stored = secretsOf(stack.desk).profile('default')!.balance!;
    expect(stored).toMatchObject({
      url: `${operator.url}/test/balance/{userId}`,
      path: '$.data.balance',
      units: 'major',
      headers: [['X-Staging-Token', CREDENTIAL]],
    });
    // Sent once, on save; never in an answer, never in the page.
    expect(apiTraffic.filter((t) => t.includes(CREDENTIAL)).length).toBe(1);
    expect(await page.content()).not.toContain(CREDENTIAL);
  });

  it('sets a filter path, a signed header and its signing key; the key is write-only', async () => {
    const editor = page.getByTestId('profile-editor');
    const path = '$.account.balances[?(@.currency=="EUR")].available';
    await editor.getByTestId('profile-balance-path').fill(path);
    await editor.getByTestId('profile-balance-headers').fill('X-Signature: {hmac-sha256-hex:GET {userId}}');
    await editor.getByTestId('profile-balance-hmac-key-input').fill(PROBE_KEY);
    await editor.getByTestId('profile-save').click();
    await editor.getByTestId('profile-balance-hmac-key-state').getByText(fingerprint(PROBE_KEY)).waitFor();
    // The state may show the stored key (the profiles' change event) before the save's answer clears the field.
    await expect.poll(() => editor.getByTestId('profile-balance-hmac-key-input').inputValue()).toBe('');
    expect(secretsOf(stack.desk).profile('default')!.balance).toMatchObject({
      path,
      headers: [
        ['X-Signature', '{hmac-sha256-hex:GET {userId}}'],
        ['{hmac-key}', PROBE_KEY],
      ],
    });
    expect(apiTraffic.filter((t) => t.includes(PROBE_KEY)).length).toBe(1);
    expect(await page.content()).not.toContain(PROBE_KEY);
    await screenshot(page, 'profile-probe-signing-key');
  });

  it("shows the balance URL's query values masked; saving the form as shown keeps them, typing over one replaces it", async () => {
    const editor = page.getByTestId('profile-editor');
    const urlInput = editor.getByTestId('profile-balance-url');
    const base = `${operator.url}/test/balance/{userId}`;
    const storedUrl = () => secretsOf(stack.desk).profile('default')!.balance!.url;
    await urlInput.fill(`${base}?key=${QUERY_VALUE}&user={userId}`);
    await editor.getByTestId('profile-save').click();
    await expect.poll(() => urlInput.inputValue()).toBe(`${base}?key=***&user={userId}`);
    expect(storedUrl()).toBe(`${base}?key=${QUERY_VALUE}&user={userId}`);
    // Saved again as shown, another field changed: the stored value stays.
    await editor.getByTestId('profile-balance-units').selectOption('minor');
    await editor.getByTestId('profile-save').click();
    await expect.poll(() => secretsOf(stack.desk).profile('default')!.balance!.units).toBe('minor');
    expect(storedUrl()).toBe(`${base}?key=${QUERY_VALUE}&user={userId}`);
    // The page has the save's answer (it sets the field as stored) before anything is typed over it.
    await expect.poll(() => editor.getByTestId('profile-save').isEnabled()).toBe(true);
    // Typed over: replaced, and masked again.
    await urlInput.fill(`${base}?key=${TYPED_VALUE}&user={userId}`);
    await editor.getByTestId('profile-save').click();
    // The field shows the answer of the save: masked once the save is answered.
    await expect.poll(() => urlInput.inputValue()).toBe(`${base}?key=***&user={userId}`);
    expect(storedUrl()).toBe(`${base}?key=${TYPED_VALUE}&user={userId}`);
    // Each value went out once, in the save that typed it; no answer and nothing on the page holds one.
    expect(apiTraffic.filter((t) => t.includes(QUERY_VALUE)).length).toBe(1);
    expect(apiTraffic.filter((t) => t.includes(TYPED_VALUE)).length).toBe(1);
    const content = await page.content();
    expect(content).not.toContain(QUERY_VALUE);
    expect(content).not.toContain(TYPED_VALUE);
  });
});
