// The setup every end-to-end file shares: the built UI, a desk with its capture proxy and web UI
// (helpers/stack.ts), and headless Chromium with one desktop-sized page.
import type { Browser, Page } from 'playwright-core';
import { collectPageErrors, launchChromium } from './browser';
import { builtRenderer } from './renderer';
import { startStack, type Stack } from './stack';

export interface E2eSession {
  stack: Stack;
  browser: Browser;
  page: Page;
  /** Uncaught errors and console errors of the page, for a test to assert there were none. */
  pageErrors: string[];
  close(): Promise<void>;
}

/** `stepTimeoutMs`: how long one page step may take, so a test fails at the step that went wrong. */
export async function openSession(
  options: { stepTimeoutMs?: number; prepare?: (stack: Stack) => void | Promise<void>; secret?: string | null; database?: string; keyFile?: string } = {},
): Promise<E2eSession> {
  const renderer = await builtRenderer();
  const stack = await startStack({
    rendererDir: renderer.dir,
    ...(options.secret !== undefined ? { secret: options.secret } : {}),
    ...(options.database !== undefined ? { database: options.database } : {}),
    ...(options.keyFile !== undefined ? { keyFile: options.keyFile } : {}),
  });
  await options.prepare?.(stack);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(options.stepTimeoutMs ?? 8_000);
  return {
    stack,
    browser,
    page,
    pageErrors: collectPageErrors(page),
    async close() {
      await browser.close();
      await stack.close();
      renderer.remove();
    },
  };
}
