// Profiles and test tokens in Chromium, through the web mode, with a stand-in create-token endpoint:
// create a profile with a signing secret and an API key, edit, duplicate, delete and switch; request
// a token and read its decoded claims; then prove, from everything the page received (every API
// response, the event stream's payloads, the DOM, the inputs, local and session storage), that the
// secrets never came back to the browser.
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_ID, startTokenEndpoint, type TokenEndpoint } from '../integration/token/token-endpoint';
import { goTo, openApp } from './helpers/app';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import type { Stack } from './helpers/stack';
import { secretsOf } from '../helpers/desk';

const SECRET = 'acme-signing-secret-Zq81-never-shown';
const API_KEY = 'acme-api-key-Kp42-write-only';
const fingerprint = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 8);

let session: E2eSession;
let stack: Stack;
let tokens: TokenEndpoint;
let page: Page;
let pageErrors: string[];
/** Everything the desk sent to the page: API response bodies, and the payloads of the event stream. */
const received: string[] = [];
const bodies: Array<Promise<unknown>> = [];
/** Bodies of the page's API requests that carried a secret (it sends them once, on save). */
const sentWithSecret: string[] = [];

beforeAll(async () => {
  session = await openSession();
  ({ stack, page, pageErrors } = session);
  tokens = await startTokenEndpoint(API_KEY);
  // The event stream never ends, so its body cannot be read from the page's side: read what the desk
  // pushes into it at the source instead (the web mode serializes exactly these payloads).
  stack.desk.on((name, payload) => received.push(`${name} ${JSON.stringify(payload)}`));
  page.on('request', (req) => {
    const body = req.postData() ?? '';
    if (body.includes(SECRET) || body.includes(API_KEY)) sentWithSecret.push(`${req.url()} ${body}`);
  });
  // Bodies arrive after their response event: kept as promises, awaited before the leak check reads them.
  page.on('response', (res) => {
    if (!res.url().includes('/api/') || res.url().endsWith('/api/events')) return;
    bodies.push(
      res.text().then(
        (text) => received.push(`${res.url()} ${text}`),
        () => 0,
      ),
    );
  });
}, 120_000);

afterAll(async () => {
  await tokens?.close();
  await session?.close();
});

const editor = () => page.getByTestId('profile-editor');

describe('profiles and test tokens in Chromium', () => {
  it('creates a profile: the secrets show only as set, with their fingerprints', async () => {
    await openApp(page, stack);
    await goTo(page, 'profiles');
    await page.locator('[data-testid="profile-card"][data-name="default"][data-active="true"]').waitFor();
    await page.getByTestId('profile-new').click();
    await page.getByTestId('profile-name').fill('acme-staging');
    // One proxy serves every profile: each needs a callback prefix of its own.
    await page.getByTestId('profile-callback-prefix').fill('/acme-staging');
    await page.getByTestId('profile-operator-url').fill('http://127.0.0.1:9/operator');
    await page.getByTestId('profile-base-url').fill(tokens.url);
    await page.getByTestId('profile-operator-id').fill(OPERATOR_ID);
    await page.getByTestId('profile-secret-input').fill(SECRET);
    await page.getByTestId('profile-api-key-input').fill(API_KEY);
    await page.getByTestId('profile-save').click();

    await page.locator('[data-testid="profile-editor"][data-name="acme-staging"]').waitFor();
    expect(await editor().getByTestId('profile-secret-state').textContent()).toContain(fingerprint(SECRET));
    expect(await editor().getByTestId('profile-api-key-state').textContent()).toContain(fingerprint(API_KEY));
    // Write-only: the inputs are empty again, and say that leaving them so keeps the stored value.
    expect(await editor().getByTestId('profile-secret-input').inputValue()).toBe('');
    expect(await editor().getByTestId('profile-api-key-input').inputValue()).toBe('');
    expect(await editor().getByTestId('profile-secret-input').getAttribute('placeholder')).toContain('keep');
    await screenshot(page, '30-profile-created');
  });

  it('saves an edit without touching the secrets, duplicates, deletes and switches', async () => {
    await editor().getByTestId('profile-operator-id').fill(`${OPERATOR_ID}`);
    await editor().getByTestId('profile-operator-url').fill('http://127.0.0.1:9/operator/v2');
    await editor().getByTestId('profile-save').click();
    await page.locator('[data-testid="profile-card"][data-name="acme-staging"]').getByText('/operator/v2').waitFor();
    // Empty secret fields kept the stored values (checked on the main side, where they live).
    const stored = secretsOf(stack.desk).profile('acme-staging')!;
    expect(stored.secret).toBe(SECRET);
    expect(stored.apiKey).toBe(API_KEY);

    await editor().getByTestId('profile-duplicate').click();
    await page.getByTestId('duplicate-name').fill('acme-copy');
    await page.getByTestId('duplicate-ok').click();
    await page.locator('[data-testid="profile-editor"][data-name="acme-copy"]').waitFor();
    expect(await editor().getByTestId('profile-secret-state').textContent()).toContain(fingerprint(SECRET));

    // "Clear" removes a secret on save, from the copy only.
    await editor().getByTestId('profile-api-key-clear').click();
    await editor().getByTestId('profile-api-key-clearing').waitFor();
    await editor().getByTestId('profile-save').click();
    await page.locator('[data-testid="profile-editor"][data-name="acme-copy"] [data-testid="profile-api-key-state"][data-set="false"]').waitFor();
    expect(secretsOf(stack.desk).profile('acme-copy')!.apiKey).toBeNull();
    expect(secretsOf(stack.desk).profile('acme-staging')!.apiKey).toBe(API_KEY);

    await editor().getByTestId('profile-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => page.locator('[data-testid="profile-card"][data-name="acme-copy"]').count()).toBe(0);

    await page.locator('[data-testid="profile-card"][data-name="acme-staging"]').click();
    await editor().getByTestId('profile-switch').click();
    await page.locator('[data-testid="profile-card"][data-name="acme-staging"][data-active="true"]').waitFor();
    // The status bar names the active profile at once.
    await page.getByTestId('active-profile').getByText('acme-staging', { exact: true }).waitFor();
    await screenshot(page, '31-profiles');
  });

  it('requests a test token with what the app fills in, and reads its decoded claims', async () => {
    await goTo(page, 'tokens');
    expect(await page.getByTestId('token-profile').textContent()).toContain('acme-staging');
    expect(await page.getByTestId('token-profile').textContent()).toContain(fingerprint(API_KEY));
    expect(await page.getByTestId('token-user').inputValue()).not.toBe('');
    const userId = await page.getByTestId('token-user').inputValue();
    await page.getByTestId('token-request').click();
    await page.locator('[data-testid="token-result"][data-status="200"]').waitFor();

    const token = (await page.getByTestId('token-text').textContent())!;
    expect(token.split('.')).toHaveLength(3);
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string; exp: number };
    expect(payload.sub).toBe(userId);
    expect(await page.getByTestId('token-payload').textContent()).toContain(`"sub": "${userId}"`);
    expect(await page.getByTestId('token-header').textContent()).toContain('"alg": "HS256"');
    const exp = new Date(payload.exp * 1000);
    expect(await page.getByTestId('token-exp').textContent()).toContain(`${exp.getFullYear()}-${String(exp.getMonth() + 1).padStart(2, '0')}`);
    expect(await page.getByTestId('token-time-left').textContent()).toMatch(/^(59 min \d+ s|1 h 0 min) left$/);
    expect(await page.getByTestId('token-note').textContent()).toContain('cannot check');
    // The endpoint received the profile's key; the page never held it.
    expect(tokens.seen.at(-1)!.headers['x-api-key']).toBe(API_KEY);
    await page.getByTestId('token-history-row').first().waitFor();
    await screenshot(page, '32-token-decoded');
  });

  it('says in words why there is no token, and remembers recent users (never the key)', async () => {
    tokens.mode = 'server-error';
    await page.getByTestId('token-request').click();
    await page.locator('[data-testid="token-result"][data-status="503"]').waitFor();
    expect(await page.getByTestId('token-error').textContent()).toContain('503');
    expect(await page.getByTestId('token-error').textContent()).toContain('maintenance window');
    tokens.mode = 'ok';

    await page.reload();
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    await goTo(page, 'tokens');
    await page.getByTestId('token-recent').waitFor();
    expect(await page.evaluate('window.localStorage.getItem("wager-desk.recent-token-users")')).toContain('"displayName"');
  });

  it('never sent a secret back to the browser: not in an API response, an event, the DOM, an input or storage', async () => {
    // Give every screen a chance to show what it knows.
    for (const view of ['captures', 'composer', 'edge-cases', 'checks', 'tokens', 'sandbox', 'profiles']) await goTo(page, view);
    await page.getByTestId('profile-card').first().waitFor();

    const forms = (s: string) => [s, Buffer.from(s).toString('base64'), encodeURIComponent(s)];
    const dom = await page.content();
    const inputs = (await page.evaluate('JSON.stringify(Array.from(document.querySelectorAll("input, textarea")).map((i) => i.value))')) as string;
    const storage = (await page.evaluate(
      'JSON.stringify({ local: Object.entries(window.localStorage), session: Object.entries(window.sessionStorage) })',
    )) as string;
    await Promise.all(bodies);
    expect(received.length).toBeGreaterThan(20);
    expect(received.some((r) => r.includes('listProfiles') && r.includes(fingerprint(SECRET)))).toBe(true);
    for (const secret of [SECRET, API_KEY]) {
      for (const form of forms(secret)) {
        expect(received.filter((r) => r.includes(form))).toEqual([]);
        expect(dom).not.toContain(form);
        expect(inputs).not.toContain(form);
        expect(storage).not.toContain(form);
      }
    }
    // The page sent each secret exactly once, in the save that set it.
    expect(sentWithSecret).toHaveLength(1);
    expect(sentWithSecret[0]).toContain('/api/saveProfile');
  });

  it('raised no error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
