// A check report as JUnit XML, for an operator's CI: one testsuite, one testcase per check. A fail is a
// <failure> with what was expected and what was observed; blocked, not-observable and inconclusive
// checks are <skipped> with the reason (an inconclusive one quotes every answer of its steps, the
// variant's and the control's); a warning (the desk's advice not met) passes, its advice in
// <system-out>, because CI must fail only where the spec is broken. The shape is the one Jenkins'
// xUnit plugin validates JUnit reports with (junit-10.xsd).
import { outcomeOfCheck, type CheckReport, type CheckResult } from '../../shared/model';
import { redactText } from '../redact';
import { evidenceLine, runIdsPrefix } from './report-export';
import { outcomeCounts, stepEvidence, type ExchangeLookup, type StepEvidence } from './report-evidence';

/**
 * Text XML 1.0 can hold: the five markup characters as entities, and the characters it cannot hold
 * at all (controls other than tab and line breaks, lone surrogates, U+FFFE/U+FFFF) as \uXXXX, since
 * an operator's answer may contain any byte and one such character makes the whole file unreadable.
 */
export function xmlText(text: string): string {
  return text
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** Attribute values keep their line breaks (a parser would fold them into spaces). */
function attr(text: string): string {
  return xmlText(text).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

function stepLines(s: StepEvidence): string[] {
  return [
    `Step (exchange ${s.id}): ${s.request}, signature ${s.signature}`,
    `  sent: ${s.requestBody}`,
    s.status === null ? `  no answer: ${s.error ?? 'unknown'}` : `  answer: ${s.status} ${s.answerBody}`,
  ];
}

function details(c: CheckResult, steps: StepEvidence[]): string {
  const ev = evidenceLine(c);
  const lines = [
    ...(c.rule ? [`Rule (section ${c.rule.section}): ${c.rule.text}`] : []),
    `Expected: ${c.expected}`,
    ...(c.observed ? [`Observed: ${c.observed}`] : []),
    ...(c.actual.status !== null || c.actual.error
      ? [`Answer: ${c.actual.status === null ? `none (${c.actual.error ?? 'unknown error'})` : `${c.actual.status} ${c.actual.body ?? '(no body)'}`}`]
      : []),
    ...(ev ? [`Evidence: ${ev}`] : []),
    ...(c.reason ? [`Reason: ${c.reason}`] : []),
    ...(c.blockedBy ? [`Blocked by: ${c.blockedBy.step}, which answered ${c.blockedBy.answer}`] : []),
    ...(c.howToObserve ? [`To observe it: ${c.howToObserve}`] : []),
    ...(c.sent ?? []).map((s) => `Sent: ${s}`),
    ...steps.flatMap(stepLines),
  ];
  return lines.join('\n');
}

const SKIPPED_WHY: Record<'blocked' | 'not-observable' | 'inconclusive', string> = {
  blocked: 'a step it depends on did not get the answer it needs',
  'not-observable': 'not observable',
  inconclusive: 'the variant and its control were both refused',
};

function testcase(c: CheckResult, lookup: ExchangeLookup, secrets: readonly string[]): string {
  const outcome = outcomeOfCheck(c);
  const name = `    <testcase classname="wager-desk.conformance" name="${attr(redactText(`${c.id}: ${c.title}`, secrets))}"`;
  // A passing testcase is empty: the evidence of what passed is in the HTML and Markdown reports.
  if (outcome === 'pass') return `${name}/>`;
  const text = (t: string) => xmlText(redactText(t, secrets));
  const steps = c.exchangeIds.map((id) => lookup(id)).flatMap((x) => (x ? [stepEvidence(x, secrets)] : []));
  const body = text(details(c, steps));
  const message = (m: string) => attr(redactText(m, secrets));
  switch (outcome) {
    case 'warning':
      return `${name}>\n      <system-out>${text("The desk's advice is not met (never fails the run).\n")}${body}</system-out>\n    </testcase>`;
    case 'fail':
      return `${name}>\n      <failure type="fail" message="${message(c.observed ?? c.reason ?? `expected ${c.expected}`)}">${body}</failure>\n    </testcase>`;
    default:
      return `${name}>\n      <skipped type="${outcome}" message="${message(c.reason ?? SKIPPED_WHY[outcome])}">${body}</skipped>\n    </testcase>`;
  }
}

export function reportJUnit(report: CheckReport, lookup: ExchangeLookup, secrets: readonly string[]): string {
  const counts = outcomeCounts(report);
  const skipped = counts.blocked + counts['not-observable'] + counts.inconclusive;
  const properties: Array<[string, string]> = [
    ['target', report.target],
    ['userId', report.userId],
    ...(report.callbackPrefix ? ([['callbackPrefix', report.callbackPrefix]] as Array<[string, string]>) : []),
    ...(report.runId ? ([['runIdsPrefix', runIdsPrefix(report.runId)]] as Array<[string, string]>) : []),
    ...(report.headline ? ([['headline', report.headline]] as Array<[string, string]>) : []),
    ['moneyObserved', String(report.moneyObserved ?? false)],
    ['passed', String(counts.pass)],
    ['warnings', String(counts.warning)],
    ['inconclusive', String(counts.inconclusive)],
    ['blocked', String(counts.blocked)],
    ['notObservable', String(counts['not-observable'])],
  ];
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="wager-desk conformance check #${report.id}" id="${report.id}" tests="${report.checks.length}" failures="${counts.fail}" errors="0" skipped="${skipped}" timestamp="${attr(report.at)}">`,
    '  <properties>',
    ...properties.map(([name, value]) => `    <property name="${attr(name)}" value="${attr(redactText(value, secrets))}"/>`),
    '  </properties>',
    ...report.checks.map((c) => testcase(c, lookup, secrets)),
    '</testsuite>',
  ];
  return `${lines.join('\n')}\n`;
}
