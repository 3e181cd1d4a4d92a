// One request of an edge case or a conformance check, and how it is sent: always with exact bytes,
// with the signature the step asks for (a valid one, none, a wrong one, one made with another
// secret), recorded as an outbound exchange tagged with its run.
import type { ExchangeOrigin, SignatureReport } from '../../shared/model';
import type { DeskContext } from '../desk/context';
import { SIGNATURE_HEADER } from '../outbound/headers';
import { sendAndRecord } from '../outbound/record';
import { MODE_NOTES } from '../outbound/signature-mode';
import { joinUrl } from '../outbound/target';
import { storedSecrets } from '../redact';
import { checkSignature, invalidSignatureFor, sign } from '../signing';

export type StepSignature = 'valid' | 'none' | 'invalid' | 'other-secret';

export interface CaseStep {
  /** What the step is, for reports: "pay", "the same pay again". */
  label: string;
  path: '/platform/pay' | '/platform/results';
  body: Uint8Array;
  /** Default 'valid'. */
  signature?: StepSignature;
  /** Default application/json; null sends no Content-Type. */
  contentType?: string | null;
}

/** What came back, in the terms a report shows. */
export interface StepOutcome {
  label: string;
  exchangeId: number;
  status: number | null;
  /** The response body as text (UTF-8, lossy), or null without a response. */
  body: string | null;
  error: string | null;
}

/** Everything a run needs to send its steps. The secrets live only in memory for the run. */
export interface StepEnv {
  base: string;
  secret: string;
  /** Label of the secret for the stored verdict: a profile name or "custom secret". */
  secretLabel: string;
  /** A throw-away secret for the "signed with another secret" steps. */
  otherSecret: string;
  allowSelfSigned: boolean;
  timeoutMs: number;
  origin: ExchangeOrigin;
  tags: string[];
}

// A step's signature is a send's signature mode, but for the throw-away secret: the same notes.
const NOTES: Record<StepSignature, string> = {
  valid: MODE_NOTES.resign,
  none: MODE_NOTES.none,
  invalid: MODE_NOTES.invalid,
  'other-secret': 'Signed with a throw-away secret instead of the shared one, on purpose.',
};

function headerFor(step: CaseStep, env: StepEnv): string | null {
  switch (step.signature ?? 'valid') {
    case 'valid':
      return sign(step.body, env.secret);
    case 'none':
      return null;
    case 'invalid':
      return invalidSignatureFor(step.body, env.secret);
    case 'other-secret':
      return sign(step.body, env.otherSecret);
  }
}

export async function sendStep(ctx: DeskContext, env: StepEnv, step: CaseStep): Promise<StepOutcome> {
  const signature = headerFor(step, env);
  const headers: Array<[string, string]> = [];
  const contentType = step.contentType === undefined ? 'application/json' : step.contentType;
  if (contentType !== null) headers.push(['Content-Type', contentType]);
  if (signature !== null) headers.push([SIGNATURE_HEADER, signature]);
  const verdict = checkSignature(step.body, signature, [{ profile: env.secretLabel, secret: env.secret, primary: true }]);
  const report: SignatureReport = { ...verdict, notes: [NOTES[step.signature ?? 'valid'], ...verdict.notes] };
  const detail = await sendAndRecord({ exchanges: ctx.store.exchanges, candidates: ctx.signingCandidates(), secrets: storedSecrets(ctx) }, {
    request: { url: joinUrl(env.base, step.path), method: 'POST', headers, body: step.body, timeoutMs: env.timeoutMs, allowSelfSigned: env.allowSelfSigned },
    origin: env.origin,
    sourceId: null,
    signature: report,
    tags: env.tags,
  });
  return {
    label: step.label,
    exchangeId: detail.id,
    status: detail.response?.status ?? null,
    body: detail.response ? Buffer.from(detail.response.bodyBase64, 'base64').toString('utf8') : null,
    error: detail.error,
  };
}

export const is2xx = (s: number | null): boolean => s !== null && s >= 200 && s < 300;
export const is4xx = (s: number | null): boolean => s !== null && s >= 400 && s < 500;

/** "200 {"ok":true}" or the reason there was no answer, cut for one line. */
export function describeOutcome(o: Pick<StepOutcome, 'status' | 'body' | 'error'>, max = 160): string {
  if (o.status === null) return `no answer (${o.error ?? 'unknown error'})`;
  const body = (o.body ?? '').replace(/\s+/g, ' ').trim();
  const cut = body.length > max ? `${body.slice(0, max)}…` : body;
  return cut === '' ? `${o.status} with an empty body` : `${o.status} ${cut}`;
}
