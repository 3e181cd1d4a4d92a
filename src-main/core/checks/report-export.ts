// A stored check report as a file to attach to a ticket: JSON (the report whole) or Markdown (a
// summary table, then each check with its evidence: the requests sent and the answers). Signatures
// are shown (they are not secret); secrets never are, since reports never hold them.
import { outcomeOfCheck, type CheckOutcome, type CheckReport, type CheckResult, type ExchangeDetail } from '../../shared/model';
import { OUTCOME_MARKS } from '../../shared/edge-case-summary';
import { fence } from '../markdown';
import { headerValue } from '../outbound/headers';
import { SIGNATURE_HEADER } from '../signing';

const MAX_BODY_SHOWN = 2000;

function mark(c: CheckResult): string {
  return OUTCOME_MARKS[outcomeOfCheck(c)];
}

/** What every id of a run starts with: wd-<runId> (reports of earlier versions used wd-check-<runId>-). */
export function runIdsPrefix(runId: string): string {
  return /^[0-9a-f]{16}$/.test(runId) ? `wd-${runId}` : `wd-check-${runId}-`;
}

/** The count line of a report: passed, failed, blocked, not observable, then inconclusive and warnings where there are any. */
export function countsLine(report: CheckReport): string {
  const more = [
    ...((report.inconclusive ?? 0) > 0 ? [`${report.inconclusive} inconclusive`] : []),
    ...((report.warnings ?? 0) > 0 ? [`${report.warnings} ${report.warnings === 1 ? 'warning' : 'warnings'}`] : []),
  ];
  return `${report.passed} passed, ${report.failed} failed, ${report.blocked ?? 0} blocked, ${report.notObservable} not observable${more.map((m) => `, ${m}`).join('')}`;
}

/** What each outcome's reason is introduced by, in a report. */
const WHY: Record<CheckOutcome, string> = {
  pass: 'Note',
  fail: 'Why it failed',
  blocked: 'Why it is blocked',
  'not-observable': 'Why it is not observable',
  inconclusive: 'Why it is inconclusive',
  warning: "The desk's advice not met",
};

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}

/** A body in a fenced block, cut at MAX_BODY_SHOWN characters. */
function bodyFence(text: string): string {
  return fence(text.length > MAX_BODY_SHOWN ? `${text.slice(0, MAX_BODY_SHOWN)}\n… (${text.length - MAX_BODY_SHOWN} more characters)` : text);
}

const bodyText = (base64: string): string => Buffer.from(base64, 'base64').toString('utf8');

function evidence(x: ExchangeDetail): string[] {
  const sig = headerValue(x.request.headers, SIGNATURE_HEADER);
  const lines = [
    `- Exchange ${x.id}: \`${x.method} ${x.target ?? x.path}\`, signature ${sig ? `\`${sig}\`` : 'none'} (${x.signature.verdict ?? 'n/a'})`,
    '',
    bodyFence(bodyText(x.request.bodyBase64)),
    '',
  ];
  if (x.response)
    lines.push(`  Answer: **${x.response.status}** in ${x.durationMs ?? '?'} ms`, '', bodyFence(bodyText(x.response.bodyBase64) || '(empty body)'), '');
  else lines.push(`  No answer: ${x.error ?? 'unknown'}`, '');
  return lines;
}

/** The evidence of a check in words: statuses, balance before and after, quoted words, what the client sees. */
export function evidenceLine(c: CheckResult): string | null {
  const e = c.evidence;
  if (!e) return null;
  const parts: string[] = [];
  if (e.statuses.length > 0) parts.push(`status ${e.statuses.map((x) => x ?? 'none').join(', ')}`);
  if (e.balanceBefore !== undefined || e.balanceAfter !== undefined) {
    parts.push(
      `balance ${e.balanceBefore ?? '?'} → ${e.balanceAfter ?? '?'}${e.delta ? ` (${e.delta}; expected ${e.expectedDelta ?? '?'})` : ''}${e.balanceSource ? ` from the ${e.balanceSource}` : ''}`,
    );
  }
  if (e.words && e.words.length > 0) parts.push(`words: ${e.words.map((w) => `"${w}"`).join(', ')}`);
  if (e.clientSees) parts.push(`the client sees: ${e.clientSees}`);
  return parts.length > 0 ? parts.join('; ') : null;
}

function checkSection(c: CheckResult, lookup: (id: number) => ExchangeDetail | null): string[] {
  const lines = [`### ${mark(c)} ${c.id}: ${c.title}`, ''];
  if (c.rule) lines.push(`- Rule (section ${c.rule.section}): ${c.rule.text}`);
  lines.push(`- Expected: ${c.expected}`);
  for (const sent of c.sent ?? []) lines.push(`- Sent: ${sent}`);
  if (c.observed) lines.push(`- Observed: ${c.observed}`);
  const ev = evidenceLine(c);
  if (ev) lines.push(`- Evidence: ${ev}`);
  if (c.reason) lines.push(`- ${WHY[outcomeOfCheck(c)]}: ${c.reason}`);
  if (c.howToObserve) lines.push(`- To observe it: ${c.howToObserve}`);
  lines.push('');
  if (c.pass === null) {
    if (c.exchangeIds.length > 0) lines.push(`Exchanges: ${c.exchangeIds.join(', ')} (their evidence is under the check of the same id without .money).`, '');
    return lines;
  }
  for (const id of c.exchangeIds) {
    const x = lookup(id);
    lines.push(...(x ? evidence(x) : [`- Exchange ${id}: no longer in the log`, '']));
  }
  return lines;
}

export function reportMarkdown(report: CheckReport, lookup: (id: number) => ExchangeDetail | null): string {
  const lines = [
    `# Conformance check #${report.id}`,
    '',
    ...(report.headline ? [`**${report.headline}**`, ''] : []),
    `- Target: ${report.target}${report.callbackPrefix ? ` (callbacks at \`${report.callbackPrefix}/pay\` and \`${report.callbackPrefix}/results\`)` : ''}`,
    `- Test user: ${report.userId}`,
    ...(report.moneySource ? [`- Money read from: ${report.moneySource}`] : []),
    ...(report.budget ? [`- Spending: ${report.budget}`] : []),
    `- Run: ${report.at}${report.runId ? ` (ids start with \`${runIdsPrefix(report.runId)}\`)` : ''}`,
    `- Result: ${countsLine(report)}`,
    '',
    '| | Check | Rule | Expected | Observed |',
    '| --- | --- | --- | --- | --- |',
    ...report.checks.map(
      (c) =>
        `| ${mark(c)} | ${cell(`${c.id}: ${c.title}`)} | ${c.rule ? cell(`§${c.rule.section}`) : ''} | ${cell(c.expected)} | ${cell(
          c.observed ?? (c.pass === null ? 'not observable' : c.actual.status === null ? 'no answer' : `${c.actual.status}`),
        )}${c.reason ? cell(` (${c.reason})`) : ''} |`,
    ),
    '',
    "Not observable items are never counted as passed: give the run balance evidence, or confirm them in the operator's own records.",
    '',
    '## Evidence',
    '',
    ...report.checks.flatMap((c) => checkSection(c, lookup)),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

export function reportJson(report: CheckReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** The shape `check --json` prints (design/CLI.md), with the report's id and run id added. */
export function checkJson(report: CheckReport) {
  return {
    ...(report.headline ? { headline: report.headline } : {}),
    passed: report.passed,
    failed: report.failed,
    blocked: report.blocked ?? 0,
    notObservable: report.notObservable,
    inconclusive: report.inconclusive ?? 0,
    warnings: report.warnings ?? 0,
    reportId: report.id,
    runId: report.runId ?? null,
    target: report.target,
    callbackPrefix: report.callbackPrefix ?? null,
    userId: report.userId,
    moneyObserved: report.moneyObserved ?? false,
    ...(report.moneySource ? { moneySource: report.moneySource } : {}),
    ...(report.budget ? { budget: report.budget } : {}),
    concurrency: report.concurrency ?? null,
    ...(report.refusal ? { refusal: report.refusal } : {}),
    checks: report.checks.map((c) => ({
      id: c.id,
      title: c.title,
      pass: c.pass,
      outcome: outcomeOfCheck(c),
      ...(c.rule ? { rule: c.rule } : {}),
      expected: c.expected,
      ...(c.sent ? { sent: c.sent } : {}),
      ...(c.observed ? { observed: c.observed } : {}),
      actual: { status: c.actual.status, body: c.actual.body, ...(c.actual.error ? { error: c.actual.error } : {}) },
      ...(c.evidence ? { evidence: c.evidence } : {}),
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.blockedBy ? { blockedBy: c.blockedBy } : {}),
      ...(c.howToObserve ? { howToObserve: c.howToObserve } : {}),
      exchangeIds: c.exchangeIds,
    })),
  };
}

/** The human line of one check: `PASS id  title`, `FAIL id  title: expected ..., got ...`, `BLOCKED id  title: why`, `N/A id  title`. */
export function checkLine(c: CheckResult): string {
  const outcome = outcomeOfCheck(c);
  if (outcome === 'pass') return `PASS ${c.id}  ${c.title}${c.evidence?.delta ? ` (${c.observed ?? ''})` : ''}`;
  if (outcome === 'not-observable')
    return `N/A ${c.id}  ${c.title}: not observable: ${c.reason ?? 'the run has no balance evidence'}; ${c.howToObserve ?? 'give the run balance evidence'}`;
  if (outcome === 'inconclusive') return `INCONCLUSIVE ${c.id}  ${c.title}: ${c.reason ?? 'its plain control was refused too'}`;
  if (outcome === 'warning') return `WARN ${c.id}  ${c.title}: ${c.reason ?? "the desk's advice is not met"}`;
  if (outcome === 'blocked') return `BLOCKED ${c.id}  ${c.title}: ${c.reason ?? 'a step it depends on did not get the answer it needs'}`;
  if (c.evidence?.delta !== undefined) return `FAIL ${c.id}  ${c.title}: ${c.observed ?? c.reason ?? 'the balance moved otherwise'}`;
  const got = c.actual.status === null ? `no answer (${c.actual.error ?? 'unknown error'})` : describeBody(c.actual.status, c.actual.body);
  return `FAIL ${c.id}  ${c.title}: expected ${c.expected}, got ${got}${c.reason ? ` [${c.reason}]` : ''}`;
}

function describeBody(status: number, body: string | null): string {
  const text = (body ?? '').replace(/\s+/g, ' ').trim();
  return text === '' ? `${status} (empty body)` : `${status} ${text.length > 120 ? `${text.slice(0, 120)}…` : text}`;
}
