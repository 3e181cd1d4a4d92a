// Shared steps of the end-to-end suites: open the app from the printed URL, move between screens,
// and read what a stand-in operator received.
import type { Page } from 'playwright-core';
import type { ReceivedRequest } from '../../helpers/operator';
import type { Stack } from './stack';

/** Opens the ui: address (token in the fragment) and waits until the live event stream is up. */
export async function openApp(page: Page, stack: Stack): Promise<void> {
  await page.goto(stack.ui.url);
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
}

export async function goTo(page: Page, view: string): Promise<void> {
  await page.getByTestId(`nav-${view}`).click();
  await page.locator(`[data-testid="nav-${view}"][aria-current="page"]`).waitFor();
}

/** The JSON body of a request the stand-in operator received. */
export function bodyOf(r: ReceivedRequest): Record<string, unknown> {
  return JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;
}
