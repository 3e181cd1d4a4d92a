// Debian's Chromium, driven by playwright-core, for the e2e suite and the UI benchmark. The e2e suite
// never skips: without the browser it fails and says how to install it.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `The e2e tests and the UI benchmark need Chromium at ${CHROMIUM_PATH}. Install it with \`apt-get install -y chromium\` (Debian/Ubuntu) or point CHROMIUM_PATH at a Chromium binary.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const artifacts = fileURLToPath(new URL('../../../test-artifacts/e2e', import.meta.url));

/** Saves a full-window screenshot to test-artifacts/e2e/NAME.png (gitignored; CI keeps it). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifacts, { recursive: true });
  const path = join(artifacts, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Collects the page's console errors and uncaught exceptions: an e2e test fails on any. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  return errors;
}
