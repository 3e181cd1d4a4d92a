// A check report as one self-contained HTML page an operator's engineer opens without the desk: the
// verdict, then each check with its rule, what was sent, the answer and the money. Inline CSS only,
// no script and no URL of any kind (it opens offline, in a CI's artifact viewer, from a mail). Every
// value is escaped: an operator's answer is shown as text, never as markup; a Content-Security-Policy
// forbids scripts and loads in case a viewer ever parses it otherwise.
import { outcomeOfCheck, type CheckOutcome, type CheckReport, type CheckResult } from '../../shared/model';
import { redactText } from '../redact';
import { evidenceLine, runIdsPrefix } from './report-export';
import { outcomeCounts, stepEvidence, type ExchangeLookup, type StepEvidence } from './report-evidence';

const LABELS: Record<CheckOutcome, string> = {
  pass: 'pass',
  fail: 'fail',
  warning: 'warning',
  inconclusive: 'inconclusive',
  blocked: 'blocked',
  'not-observable': 'not observable',
};

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1b1f24;background:#fff}
h1{font-size:22px;margin:0 0 8px}h2{font-size:16px;margin:0 0 8px}
.verdict{font-size:16px;font-weight:600;padding:10px 14px;border-radius:6px;margin:12px 0}
.verdict.fail{background:#fde8e8;color:#8a1c1c}.verdict.ok{background:#e6f4ea;color:#1e5e2f}.verdict.open{background:#fff4d6;color:#6b4b00}
.meta td{padding:2px 12px 2px 0;vertical-align:top}.meta td:first-child{color:#57606a}
.counts span{display:inline-block;margin:4px 8px 4px 0;padding:2px 8px;border-radius:10px;background:#eef1f4}
table.summary{border-collapse:collapse;width:100%;margin:16px 0}
table.summary th,table.summary td{border-bottom:1px solid #d8dee4;padding:4px 6px;text-align:left;vertical-align:top}
.badge{display:inline-block;min-width:86px;text-align:center;border-radius:4px;padding:1px 6px;font-size:12px;font-weight:600;text-transform:uppercase}
.pass{background:#dafbe1;color:#116329}.fail{background:#ffebe9;color:#a40e26}.warning{background:#fff8c5;color:#7d4e00}
.inconclusive{background:#eae4f7;color:#4b2a8c}.blocked{background:#ffe7c2;color:#7a3e00}.not-observable{background:#eef1f4;color:#424a53}
section.check{border:1px solid #d8dee4;border-radius:6px;padding:12px 14px;margin:14px 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px;margin:8px 0}dt{color:#57606a}dd{margin:0;overflow-wrap:anywhere}
pre{background:#f6f8fa;border:1px solid #e1e4e8;border-radius:4px;padding:8px;white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0 10px;font-size:12px}
.step{border-top:1px dashed #d8dee4;padding-top:6px;margin-top:6px}.muted{color:#57606a}
`;

/** Text as HTML: the characters that open markup, entities or attribute values become entities. */
export function htmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function verdictOf(counts: Record<CheckOutcome, number>): { tone: 'fail' | 'ok' | 'open'; text: string } {
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  if (counts.fail > 0) return { tone: 'fail', text: `The operator departs from the spec: ${n(counts.fail, 'check failed', 'checks failed')}.` };
  const unjudged = counts.blocked + counts.inconclusive + counts['not-observable'];
  if (unjudged > 0)
    return { tone: 'open', text: `Nothing failed; ${n(unjudged, 'check', 'checks')} could not be judged (blocked, inconclusive or not observable).` };
  if (counts.warning > 0)
    return {
      tone: 'ok',
      text: `Every check of the spec passed; ${n(counts.warning, "piece of the desk's advice is", "pieces of the desk's advice are")} not met.`,
    };
  return { tone: 'ok', text: 'Every check passed.' };
}

function money(c: CheckResult): string | null {
  const e = c.evidence;
  if (!e || (e.balanceBefore === undefined && e.balanceAfter === undefined && e.delta === undefined)) return null;
  return `balance ${e.balanceBefore ?? '?'} → ${e.balanceAfter ?? '?'}${e.delta ? `, moved ${e.delta}` : ''}${e.expectedDelta ? `, the rule says ${e.expectedDelta}` : ''}${e.balanceSource ? ` (read from the ${e.balanceSource})` : ''}`;
}

function row(term: string, value: string | null | undefined, t: (s: string) => string): string {
  return value ? `<dt>${term}</dt><dd>${t(value)}</dd>` : '';
}

function stepHtml(s: StepEvidence, t: (s: string) => string): string {
  const answer = s.status === null ? `<p>No answer: ${t(s.error ?? 'unknown')}</p>` : `<p>Answer <strong>${s.status}</strong></p><pre>${t(s.answerBody)}</pre>`;
  return `<div class="step"><p><code>${t(s.request)}</code> <span class="muted">exchange ${s.id}, signature ${t(s.signature)}</span></p><pre>${t(s.requestBody)}</pre>${answer}</div>`;
}

function checkHtml(c: CheckResult, index: number, lookup: ExchangeLookup, secrets: readonly string[], t: (s: string) => string): string {
  const outcome = outcomeOfCheck(c);
  const steps = c.exchangeIds.map((id) => ({ id, x: lookup(id) }));
  const answer = c.actual.status === null ? (c.actual.error ? `none (${c.actual.error})` : null) : `${c.actual.status} ${c.actual.body ?? '(no body)'}`;
  return [
    `<section class="check" id="check-${index}" data-check-id="${t(c.id)}" data-outcome="${outcome}">`,
    `<h2><span class="badge ${outcome}">${LABELS[outcome]}</span> ${t(c.id)}: ${t(c.title)}</h2>`,
    '<dl>',
    c.rule ? `<dt>Rule</dt><dd>${c.rule.section === '' ? '' : `section ${t(c.rule.section)}: `}${t(c.rule.text)}</dd>` : '',
    row('Expected', c.expected, t),
    ...(c.sent ?? []).map((s) => row('Sent', s, t)),
    row('Observed', c.observed, t),
    row('Answer', answer, t),
    row('Money', money(c), t),
    row('Evidence', evidenceLine(c), t),
    row(outcome === 'warning' ? 'Advice' : 'Reason', c.reason, t),
    c.blockedBy ? row('Blocked by', `${c.blockedBy.step}, which answered ${c.blockedBy.answer}`, t) : '',
    row('To observe it', c.howToObserve, t),
    '</dl>',
    ...steps.map(({ id, x }) => (x ? stepHtml(stepEvidence(x, secrets), t) : `<p class="muted">Exchange ${id} is no longer in the log.</p>`)),
    '</section>',
  ].join('');
}

export function reportHtml(report: CheckReport, lookup: ExchangeLookup, secrets: readonly string[]): string {
  // Every value goes through redaction, then escaping: one function, so none is forgotten.
  const t = (s: string) => htmlText(redactText(s, secrets));
  const counts = outcomeCounts(report);
  const verdict = verdictOf(counts);
  const order: CheckOutcome[] = ['pass', 'fail', 'warning', 'inconclusive', 'blocked', 'not-observable'];
  const meta: Array<[string, string]> = [
    ['Target', report.target],
    ...(report.callbackPrefix ? ([['Callbacks', `${report.callbackPrefix}/pay and ${report.callbackPrefix}/results`]] as Array<[string, string]>) : []),
    ['Test user', report.userId],
    ['Run', `${report.at}${report.runId ? `, ids start with ${runIdsPrefix(report.runId)}` : ''}`],
    ['Money', report.moneyObserved ? 'observed (balance readings)' : 'not observed (no balance evidence)'],
    ...(report.refusal ? ([['Why a signed callback was refused', report.refusal.explanation]] as Array<[string, string]>) : []),
  ];
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Conformance check #${report.id}: ${t(report.target)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<h1>Conformance check #${report.id}</h1>`,
    `<p class="verdict ${verdict.tone}" data-testid="verdict">${t(verdict.text)}</p>`,
    report.headline ? `<p class="verdict fail" data-testid="headline">${t(report.headline)}</p>` : '',
    `<table class="meta">${meta.map(([k, v]) => `<tr><td>${t(k)}</td><td>${t(v)}</td></tr>`).join('')}</table>`,
    `<p class="counts">${order.map((o) => `<span class="${o}" data-count="${o}">${counts[o]} ${LABELS[o]}</span>`).join('')}</p>`,
    '<table class="summary"><thead><tr><th></th><th>Check</th><th>Rule</th><th>Observed</th></tr></thead><tbody>',
    ...report.checks.map((c, i) => {
      const o = outcomeOfCheck(c);
      const observed = c.observed ?? c.reason ?? (c.actual.status === null ? 'no answer' : String(c.actual.status));
      return `<tr><td><span class="badge ${o}">${LABELS[o]}</span></td><td><a href="#check-${i}">${t(c.id)}</a>: ${t(c.title)}</td><td>${c.rule ? `§${t(c.rule.section)}` : ''}</td><td>${t(observed)}</td></tr>`;
    }),
    '</tbody></table>',
    ...report.checks.map((c, i) => checkHtml(c, i, lookup, secrets, t)),
    `<p class="muted">Written by Wager Desk. Not observable and inconclusive checks are never counted as passed; warnings are the desk's advice, not the spec's rule. Secrets are redacted.</p>`,
    '</body></html>',
  ];
  return `${html.join('\n')}\n`;
}
