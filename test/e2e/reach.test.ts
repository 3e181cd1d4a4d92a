// Reaching the desk, in Chromium: the status bar and the empty list show the exact callback URLs to
// configure in the platform (the proxy's own, then the public URL), with copy buttons; the proxy panel
// turns HTTPS on without changing the port; making a profile with an upstream active asks whether to
// apply it to the running proxy, and applying it keeps the port; a port in use is refused and the proxy
// keeps answering where it was.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src-main/core/signing';
import { must } from '../helpers/must';
import { startRecorder, type Recorder } from '../helpers/servers';
import { goTo, openApp } from './helpers/app';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import { TEST_SECRET, sendCallback, type Stack } from './helpers/stack';

let session: E2eSession;
let stack: Stack;
let page: Page;
let pageErrors: string[];
let operator: Recorder;

beforeAll(async () => {
  session = await openSession();
  ({ stack, page, pageErrors } = session);
  operator = await startRecorder((_req, _body, res) => res.end('{"status":"ok","balance":1}'));
}, 120_000);

afterAll(async () => {
  await operator?.close();
  await session?.close();
});

/** A signed pay over HTTPS, trusting only the certificate the desk wrote. */
function payOverTls(url: string, ca: Buffer, depositId: string): Promise<number> {
  const body = JSON.stringify({ userId: 'u-reach', depositId, currency: 'EUR', amount: 5 });
  const target = new URL('/platform/pay', url);
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        ca,
        agent: false,
        headers: { 'x-server-authorization': sign(Buffer.from(body), TEST_SECRET) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const proxyPort = async (): Promise<number> => must(await stack.desk.getStatus()).proxy.port!;

describe('reaching the desk in Chromium', () => {
  it("shows the callback URLs to configure: the proxy's own, then the public URL", async () => {
    await openApp(page, stack);
    const port = await proxyPort();
    await page.getByTestId('captures-empty').waitFor();
    expect(await page.getByTestId('empty-callback-urls-pay').textContent()).toBe(`http://127.0.0.1:${port}/platform/pay`);
    expect(await page.getByTestId('status-callback-urls-results').textContent()).toBe(`http://127.0.0.1:${port}/platform/results`);
    expect(await page.getByTestId('public-url').textContent()).toContain('none');

    await page.getByTestId('proxy-edit').click();
    await page.getByTestId('proxy-public-url').fill('https://desk-tunnel.example.net');
    await page.getByTestId('proxy-apply').click();
    await page.getByTestId('public-url').getByText('https://desk-tunnel.example.net').waitFor();
    expect(await page.getByTestId('status-callback-urls-pay').textContent()).toBe('https://desk-tunnel.example.net/platform/pay');
    expect(await page.getByTestId('empty-callback-urls-results').textContent()).toBe('https://desk-tunnel.example.net/platform/results');
    expect(await proxyPort()).toBe(port);
    await screenshot(page, '70-callback-urls');
  });

  it('turns HTTPS on from the proxy panel on the same port, with a self-signed certificate', async () => {
    const port = await proxyPort();
    await page.getByTestId('proxy-edit').click();
    await page.getByTestId('proxy-tls-choice').selectOption('self-signed');
    await page.getByTestId('proxy-tls-hosts').fill('127.0.0.1');
    await page.getByTestId('proxy-apply').click();
    await page.getByTestId('proxy-url').getByText(`https://127.0.0.1:${port}`).waitFor();
    await page.getByTestId('proxy-tls').waitFor();
    const status = must(await stack.desk.getStatus()).proxy;
    expect(status.tls).toMatchObject({ source: 'self-signed', hosts: ['127.0.0.1'] });
    const ca = readFileSync(join(stack.home, 'tls', 'proxy-cert.pem'));
    expect(await payOverTls(status.url!, ca, 'dep-over-tls')).toBe(200);
    const row = page.getByTestId('capture-row').filter({ has: page.getByTestId('row-deposit').getByText('dep-over-tls', { exact: true }) });
    await row.click();
    expect(await page.getByTestId('request-origin').textContent()).toContain('over HTTPS');
    await screenshot(page, '71-https-on');
    // Back to plain HTTP for the rest of the file.
    await page.getByTestId('proxy-edit').click();
    await page.getByTestId('proxy-tls-choice').selectOption('none');
    await page.getByTestId('proxy-apply').click();
    await page.getByTestId('proxy-url').getByText(`http://127.0.0.1:${port}`).waitFor();
  });

  it('refuses a port in use, says why, and the proxy keeps answering on its port', async () => {
    const port = await proxyPort();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const busy = (blocker.address() as net.AddressInfo).port;
      await page.getByTestId('proxy-edit').click();
      await page.getByTestId('proxy-port').fill(String(busy));
      await page.getByTestId('proxy-apply').click();
      await page.getByTestId('status-error').getByText(`Port ${busy} on 127.0.0.1 is already in use`).waitFor();
      expect(await page.getByTestId('status-error').textContent()).toContain('still runs on');
      expect(await page.locator('[data-testid="proxy-state"]').getAttribute('data-running')).toBe('true');
      const body = JSON.stringify({ userId: 'u-reach', depositId: 'dep-after-busy', currency: 'EUR', amount: 5 });
      // Under the staging profile's own prefix: one proxy serves every profile, each to its own upstream.
      const res = await sendCallback(`http://127.0.0.1:${port}`, '/staging/pay', body, { secret: TEST_SECRET });
      expect(res.status).toBe(200);
      await screenshot(page, '72-port-in-use');
      await page.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('making a profile with an upstream active asks whether to apply it; applying keeps the port', async () => {
    const port = await proxyPort();
    must(await stack.desk.saveProfile({ name: 'staging', callbackPrefix: '/staging', secret: TEST_SECRET, upstream: operator.url }));
    await goTo(page, 'profiles');
    await page.locator('[data-testid="profile-card"][data-name="staging"]').click();
    await page.getByTestId('profile-switch').click();
    const dialog = page.getByTestId('apply-upstream-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(operator.url);
    await screenshot(page, '73-apply-upstream');
    await dialog.getByTestId('confirm-ok').click();
    await page.getByTestId('proxy-mode').getByText(operator.url).waitFor();
    expect(await proxyPort()).toBe(port);

    const body = JSON.stringify({ userId: 'u-reach', depositId: 'dep-forwarded-reach', currency: 'EUR', amount: 5 });
    // Under the staging profile's own prefix: one proxy serves every profile, each to its own upstream.
    const res = await sendCallback(`http://127.0.0.1:${port}`, '/staging/pay', body, { secret: TEST_SECRET });
    expect(res.status).toBe(200);
    expect(operator.received.map((r) => JSON.parse(r.body.toString()).depositId)).toEqual(['dep-forwarded-reach']);
  });

  it('raised no error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
