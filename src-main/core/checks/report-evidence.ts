// What the file exports of a check report (JUnit, HTML) show of each step: the request sent and the
// answer, as text, with every stored secret redacted. The log already holds them redacted; the
// export redacts again with the secrets stored now, as the HAR export does, so a secret added after
// the run still never leaves in a file.
import { outcomeOfCheck, type CheckOutcome, type CheckReport, type ExchangeDetail } from '../../shared/model';
import { bodyText } from '../export/body-text';
import { headerValue } from '../outbound/headers';
import { redactHeaders, redactText } from '../redact';
import { SIGNATURE_HEADER } from '../signing';

const MAX_BODY_SHOWN = 2000;

/** One step of a check as the exports show it. */
export interface StepEvidence {
  id: number;
  /** `POST http://host/prefix/pay` */
  request: string;
  signature: string;
  requestBody: string;
  /** null: no answer (the error says why). */
  status: number | null;
  answerBody: string;
  error: string | null;
}

/** The report's exchanges by id, as the desk reads them; null when one is no longer in the log. */
export type ExchangeLookup = (id: number) => ExchangeDetail | null;

function shown(base64: string, secrets: readonly string[]): string {
  const body = bodyText(Buffer.from(base64, 'base64'));
  const text = redactText(body.base64 ? `(binary, base64) ${body.text}` : body.text, secrets);
  if (text === '') return '(empty body)';
  return text.length > MAX_BODY_SHOWN ? `${text.slice(0, MAX_BODY_SHOWN)}… (${text.length - MAX_BODY_SHOWN} more characters)` : text;
}

export function stepEvidence(x: ExchangeDetail, secrets: readonly string[]): StepEvidence {
  const sig = headerValue(redactHeaders(x.request.headers, secrets), SIGNATURE_HEADER);
  return {
    id: x.id,
    request: redactText(`${x.method} ${x.target ?? x.path}`, secrets),
    signature: sig ? `${sig} (${x.signature.verdict ?? 'n/a'})` : 'none',
    requestBody: shown(x.request.bodyBase64, secrets),
    status: x.response?.status ?? null,
    answerBody: x.response ? shown(x.response.bodyBase64, secrets) : '',
    error: x.response ? null : redactText(x.error ?? 'unknown', secrets),
  };
}

/** How many checks of the report have each outcome. */
export function outcomeCounts(report: CheckReport): Record<CheckOutcome, number> {
  const counts: Record<CheckOutcome, number> = { pass: 0, fail: 0, blocked: 0, 'not-observable': 0, inconclusive: 0, warning: 0 };
  for (const c of report.checks) counts[outcomeOfCheck(c)]++;
  return counts;
}
