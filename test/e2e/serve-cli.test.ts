// The whole path a newcomer takes: `wager-desk serve` in a child process prints its proxy: and ui:
// lines; Chromium opens the ui: address; a signed callback sent to the proxy shows up, verified.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommand } from '../helpers/cli';
import { tempDirForSuite } from '../helpers/temp';
import { launchChromium, screenshot, collectPageErrors } from './helpers/browser';
import { builtRenderer, type RendererBuild } from './helpers/renderer';
import { TEST_SECRET, sendCallback } from './helpers/stack';

let renderer: RendererBuild;
let home: { dir: string; remove(): void };
let child: ChildProcess;
let browser: Browser;
const lines: Record<string, string> = {};

/** Resolves with the first stdout line of each prefix, or rejects with the CLI's stderr when it exits first. */
function waitForLines(proc: ChildProcess, prefixes: string[]): Promise<void> {
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: proc.stdout! });
    rl.on('line', (line) => {
      for (const p of prefixes) if (line.startsWith(`${p}: `) && !(p in lines)) lines[p] = line.slice(p.length + 2);
      if (prefixes.every((p) => p in lines)) resolve();
    });
    proc.on('exit', (code) => reject(new Error(`serve exited (${code}) before printing ${prefixes.join(' and ')}: ${stderr}`)));
  });
}

beforeAll(async () => {
  renderer = await builtRenderer();
  home = tempDirForSuite('wager-desk-serve-');
  const { cmd, args } = cliCommand();
  child = spawn(cmd, [...args, '--home', home.dir, 'serve', '--proxy-port', '0', '--ui-port', '0', '--secret-env', 'WAGER_SECRET'], {
    env: { ...process.env, WAGER_SECRET: TEST_SECRET, WAGER_DESK_RENDERER_DIR: renderer.dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForLines(child, ['proxy', 'ui']);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  home?.remove();
  renderer?.remove();
});

describe('wager-desk serve, seen in Chromium', () => {
  it('prints a loopback ui: address with the token, and the page shows a signed callback arriving verified', async () => {
    expect(lines.proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.ui).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{22,}$/);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(8_000);
    const errors = collectPageErrors(page);
    await page.goto(lines.ui!);
    await page.getByTestId('captures-empty').waitFor();
    expect(await page.getByTestId('empty-curl').textContent()).toContain(`${lines.proxy}/platform/pay`);

    const body = JSON.stringify({ userId: 'user-cli', depositId: 'dep-cli-1', currency: 'EUR', amount: 5 });
    const res = await sendCallback(lines.proxy!, '/platform/pay', body, { secret: TEST_SECRET });
    expect(res.status).toBe(200);
    const row = page.getByTestId('capture-row').first();
    await row.waitFor({ timeout: 2_000 });
    expect(await row.getByTestId('row-deposit').textContent()).toBe('dep-cli-1');
    expect(await row.getAttribute('data-verdict')).toBe('valid');
    await screenshot(page, '08-serve-cli');
    expect(errors).toEqual([]);
  });
});
