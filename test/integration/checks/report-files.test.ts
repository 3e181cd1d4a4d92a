// The report files a CI reads: JUnit XML valid against the junit-10 schema that Jenkins' xUnit plugin
// validates with, its counts the report's; one testcase per check, each outcome where a CI expects it.
// The run is a real check against a stand-in operator whose answers carry markup and characters XML
// cannot hold.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { reportHtml, reportJUnit } from '../../../src-main/core/checks';
import type { CheckReport } from '../../../src-main/shared/model';
import { closeAfterTest } from '../../helpers/closing';
import { logOf, openDesk } from '../../helpers/desk';
import { HOSTILE_NOTE, startHostileOperator } from '../../helpers/hostile-operator';

const SCHEMA = readFileSync(new URL('../../fixtures/junit/junit-10.xsd', import.meta.url), 'utf8');
const SECRET = 'report-files-signing-secret-7f3a9c';

async function validate(xml: string) {
  return validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: SCHEMA }] });
}

const count = (xml: string, pattern: RegExp) => (xml.match(pattern) ?? []).length;

async function hostileRun() {
  const operator = closeAfterTest(await startHostileOperator());
  const desk = openDesk();
  await desk.saveProfile({ name: 'p', secret: SECRET });
  const ran = await desk.runCheck({ to: operator.url, userId: 'junit-user', concurrency: 2 });
  if (!ran.ok) throw new Error(ran.error.message);
  return { desk, report: ran.value };
}

describe('check report as JUnit XML', { timeout: 120_000 }, () => {
  it('validates against junit-10.xsd, one testcase per check, its counts the report’s', async () => {
    const { desk, report } = await hostileRun();
    expect(report.failed).toBeGreaterThan(0);
    expect(report.passed).toBeGreaterThan(0);
    const exported = await desk.exportCheckReport(report.id, 'junit');
    if (!exported.ok) throw new Error(exported.error.message);
    const xml = exported.value;

    const result = await validate(xml);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);

    // Skipped: what the run could not judge (blocked, not observable, inconclusive); a warning passes.
    const skipped = (report.blocked ?? 0) + report.notObservable + (report.inconclusive ?? 0);
    expect(report.checks.length).toBe(report.passed + (report.warnings ?? 0) + report.failed + skipped);
    expect(xml).toContain(`tests="${report.checks.length}" failures="${report.failed}" errors="0" skipped="${skipped}"`);
    expect(count(xml, /<testcase /g)).toBe(report.checks.length);
    expect(count(xml, /<failure /g)).toBe(report.failed);
    expect(count(xml, /<skipped /g)).toBe(skipped);
    for (const c of report.checks) expect(xml).toContain(`name="${c.id}: `);

    // A failure says what was expected and what came back, with the operator's words as text.
    const failed = report.checks.find((c) => c.outcome === 'fail' && c.exchangeIds.length > 0)!;
    const testcase = xml.slice(xml.indexOf(`name="${failed.id}: `), xml.indexOf('</testcase>', xml.indexOf(`name="${failed.id}: `)));
    expect(testcase).toContain(
      `Expected: ${failed.expected.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')}`,
    );
    expect(testcase).toMatch(/answer: 500 /);
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain(']]>');
    expect(xml).toContain('&lt;script&gt;');
    // \u0001 and ESC cannot be in XML 1.0 at all: they are written out, as the JSON answer escaped them.
    expect(xml).not.toMatch(/[\u0001\u001b]/);
    expect(xml).not.toContain(SECRET);
  });

  it('marks inconclusive as skipped quoting both answers, and a warning as a pass with its advice in system-out', async () => {
    const { desk, report } = await hostileRun();
    // The stored report with two checks judged as the engine judges a refused variant whose control was
    // refused too, and an unmet piece of advice: the export must place each where a CI expects it.
    const variant = report.checks.find((c) => c.outcome === 'fail' && c.exchangeIds.length > 0)!;
    const advice = report.checks.find((c) => c.outcome === 'pass')!;
    const controlId = report.checks.find((c) => c.id !== variant.id && c.exchangeIds.length > 0)!.exchangeIds[0]!;
    const judged: CheckReport = {
      ...report,
      failed: report.failed - 1,
      passed: report.passed - 1,
      checks: report.checks.map((c) =>
        c === variant
          ? {
              ...c,
              pass: null,
              outcome: 'inconclusive',
              exchangeIds: [...c.exchangeIds, controlId],
              reason: 'the variant and its plain control were both refused',
            }
          : c === advice
            ? { ...c, outcome: 'warning', reason: 'the desk advises refusing an amount of 0' }
            : c,
      ),
    };
    // The exports take their exchanges read beforehand, as the desk reads them for an export.
    const ids = judged.checks.flatMap((c) => c.exchangeIds);
    const exchanges = new Map(await Promise.all(ids.map(async (id) => [id, await logOf(desk).get(id)] as const)));
    const lookup = (id: number) => exchanges.get(id) ?? null;
    const xml = reportJUnit(judged, lookup, []);
    const result = await validate(xml);
    expect(result.errors).toEqual([]);

    const skipped = (report.blocked ?? 0) + report.notObservable + 1;
    expect(xml).toContain(`tests="${report.checks.length}" failures="${report.failed - 1}" errors="0" skipped="${skipped}"`);
    expect(count(xml, /<skipped /g)).toBe(skipped);
    const inconclusive = xml.slice(xml.indexOf(`name="${variant.id}: `), xml.indexOf('</testcase>', xml.indexOf(`name="${variant.id}: `)));
    expect(inconclusive).toContain('<skipped type="inconclusive" message="the variant and its plain control were both refused">');
    // Both answers are quoted: one step line per exchange, each with the answer it got.
    expect(count(inconclusive, /Step \(exchange \d+\)/g)).toBe(variant.exchangeIds.length + 1);
    expect(inconclusive).toContain(`Step (exchange ${controlId})`);
    const warning = xml.slice(xml.indexOf(`name="${advice.id}: `), xml.indexOf('</testcase>', xml.indexOf(`name="${advice.id}: `)));
    expect(warning).toContain('<system-out>');
    expect(warning).toContain('the desk advises refusing an amount of 0');
    expect(warning).not.toMatch(/<failure|<skipped/);

    // The page shows both outcomes under their own names.
    const html = reportHtml(judged, lookup, []);
    expect(html).toContain(`data-check-id="${variant.id}" data-outcome="inconclusive"`);
    expect(html).toContain(`data-check-id="${advice.id}" data-outcome="warning"`);
    expect(html).toContain('<span class="inconclusive" data-count="inconclusive">1 inconclusive</span>');
  });

  it('escapes the hostile answer in every text and attribute it reaches', async () => {
    const { desk, report } = await hostileRun();
    const exported = await desk.exportCheckReport(report.id, 'html');
    if (!exported.ok) throw new Error(exported.error.message);
    const html = exported.value;
    // Markup only the page itself wrote: no element that runs or loads, no attribute that points anywhere.
    expect(html).not.toMatch(/<(script|img|link|iframe|object|embed|base|svg|form)\b/i);
    expect(html).not.toMatch(/\s(src|href|action|onerror|onload)="(?!#check-)/i);
    expect(html).not.toMatch(/url\(|@import/);
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain(SECRET);
    expect(HOSTILE_NOTE).toContain('<script>');
  });
});
