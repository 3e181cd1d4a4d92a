// The check's HTML report opened as an operator's engineer opens it: a file in Chromium, offline,
// with JavaScript off. Every check is shown with its outcome; the hostile operator's answer stays text
// (no element it wrote, the title it tried to set unchanged); the page asks for nothing on the network.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { closeAfterTest } from '../helpers/closing';
import { openDesk } from '../helpers/desk';
import { startHostileOperator } from '../helpers/hostile-operator';
import { tempDir } from '../helpers/temp';
import { launchChromium, screenshot } from './helpers/browser';

describe('check --html in Chromium', { timeout: 120_000 }, () => {
  it('shows every check and its verdict without script or network', async () => {
    const operator = closeAfterTest(await startHostileOperator());
    const desk = openDesk();
    await desk.saveProfile({ name: 'p', secret: 'report-html-secret' });
    const ran = await desk.runCheck({ to: operator.url, userId: 'html-user', concurrency: 2 });
    if (!ran.ok) throw new Error(ran.error.message);
    const report = ran.value;
    const exported = await desk.exportCheckReport(report.id, 'html');
    if (!exported.ok) throw new Error(exported.error.message);
    const file = join(tempDir(), 'report.html');
    writeFileSync(file, exported.value);

    const browser = closeAfterTest(await launchChromium());
    // Offline as far as the page can tell, and no script needed to read it.
    const context = await browser.newContext({ offline: true, javaScriptEnabled: false });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    await page.goto(pathToFileURL(file).href);

    expect(await page.title()).toBe(`Conformance check #${report.id}: ${operator.url}`);
    expect(await page.getByTestId('verdict').textContent()).toContain(`${report.failed} checks failed`);
    const shown = await page.locator('section.check').evaluateAll((els) => els.map((e) => [e.getAttribute('data-check-id'), e.getAttribute('data-outcome')]));
    expect(shown).toEqual(report.checks.map((c) => [c.id, c.outcome]));
    for (const outcome of ['pass', 'fail', 'blocked', 'not-observable'] as const) {
      const n = report.checks.filter((c) => c.outcome === outcome).length;
      expect(await page.locator(`[data-count="${outcome}"]`).textContent()).toMatch(new RegExp(`^${n} `));
    }
    // The operator's markup is on the page as text, not as elements.
    expect(await page.locator('script, img, iframe, object, embed, link').count()).toBe(0);
    const failed = page.locator('section.check[data-outcome="fail"]').first();
    expect(await failed.locator('pre').last().textContent()).toContain('</failure></testcase>]]><script>document.title=\\"owned\\"</script><img src=');
    // Each check shows its rule, what was sent and the answer.
    const firstFailed = report.checks.find((c) => c.outcome === 'fail')!;
    const section = page.locator(`section.check[data-check-id="${firstFailed.id}"]`);
    expect(await section.locator('dt').allTextContents()).toEqual(expect.arrayContaining(['Rule', 'Expected', 'Sent', 'Answer']));

    expect(requests).toEqual([pathToFileURL(file).href]);
    await screenshot(page, '74-check-report-html');
    await context.close();
  });
});
