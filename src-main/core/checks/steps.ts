// One request of an edge case or a conformance check, and how it is sent: always with exact bytes,
// with the signature the step asks for (a valid one, none, a wrong one, one made with another
// secret), recorded as an outbound exchange tagged with its run.
import type { AmountsMode, ExchangeOrigin, SignatureReport } from '../../shared/model';
import { SIGNATURE_HEADER } from '../outbound/headers';
import { sendAndRecord } from '../outbound/record';
import { MODE_NOTES } from '../outbound/signature-mode';
import { joinUrl } from '../outbound/target';
import { callbackPath } from '../protocol/callback-path';
import { recordingDeps, type OutboundDeps } from '../outbound/deps';
import { checkSignature, invalidSignatureFor, sign } from '../signing';
import type { Expectation } from './expectation';

/**
 * valid: over the exact bytes with the shared secret; none: no header; invalid: well-formed but wrong;
 * other-secret: made with a throw-away secret; neighbour-secret: made with the profile's previous secret
 * or another profile's (a secret the operator may also hold); uppercase: the right digest in uppercase hex;
 * compact: over the compact re-serialization of the bytes sent (JSON.stringify(JSON.parse(body)));
 * trimmed: over the bytes sent without their surrounding whitespace; empty-object: over `{}`.
 */
export type StepSignature = 'valid' | 'none' | 'invalid' | 'other-secret' | 'neighbour-secret' | 'uppercase' | 'compact' | 'trimmed' | 'empty-object';

export interface CaseStep {
  /** What the step is, for reports: "pay", "the same pay again". */
  label: string;
  /** Which callback: posted to <callback prefix>/pay or <callback prefix>/results. */
  to: 'pay' | 'results';
  body: Uint8Array;
  /** Default 'valid'. */
  signature?: StepSignature;
  /** Default application/json; null sends no Content-Type. */
  contentType?: string | null;
  /** A set-up step: what its answer must be for the judged steps to mean anything (else the check is blocked). */
  needs?: Expectation;
  /** A judged step: what its answer must be for the check to pass. */
  expect?: Expectation;
  /** Sent this many times at once (identical bytes and signature): a concurrent duplicate. Default 1. */
  copies?: number;
}

/** What came back, in the terms a report shows. */
export interface StepOutcome {
  label: string;
  exchangeId: number;
  /** The path posted to (<prefix>/pay), for reports that say it is not served. */
  path: string;
  /** The ids the request carried (userId, depositId, roomId): an answer that echoes them is not read for its words. */
  sentIds: string[];
  status: number | null;
  /** The response body as text (UTF-8, lossy), or null without a response. */
  body: string | null;
  error: string | null;
}

/** Everything a run needs to send its steps. The secrets live only in memory for the run. */
export interface StepEnv {
  base: string;
  /** Where the operator mounts the callbacks (/platform, /acme). */
  callbackPrefix: string;
  amounts: AmountsMode;
  /** The profile's currency, carried by every body the run makes. */
  currency: string;
  secret: string;
  /** Label of the secret for the stored verdict: a profile name or "custom secret". */
  secretLabel: string;
  /** A throw-away secret for the "signed with another secret" steps. */
  otherSecret: string;
  /** The profile's previous secret or another profile's, with what it is; null when there is none. */
  neighbourSecret: { secret: string; label: string } | null;
  allowSelfSigned: boolean;
  timeoutMs: number;
  origin: ExchangeOrigin;
  tags: string[];
  /** The profile the run sends as, whose exchanges its rows are; null: none (a target given by hand). */
  profile: string | null;
}

// A step's signature is a send's signature mode, but for the throw-away secret: the same notes.
const NOTES: Record<StepSignature, string> = {
  valid: MODE_NOTES.resign,
  none: MODE_NOTES.none,
  invalid: MODE_NOTES.invalid,
  'other-secret': 'Signed with a throw-away secret instead of the shared one, on purpose.',
  'neighbour-secret': "Signed with the profile's previous secret or another profile's instead of the current one, on purpose.",
  uppercase: 'The right digest written in uppercase hex, on purpose: the platform sends lowercase.',
  compact: 'Signed over the compact re-serialization of the body, not the bytes sent, on purpose.',
  trimmed: 'Signed over the body without its surrounding whitespace, not the bytes sent, on purpose.',
  'empty-object': 'Signed over {} instead of the body, on purpose.',
};

const ENCODER = new TextEncoder();

/** The compact form of a JSON body, as JSON.stringify(JSON.parse(body)) writes it; the bytes themselves when they are not JSON. */
export function compactForm(body: Uint8Array): Uint8Array {
  try {
    return ENCODER.encode(JSON.stringify(JSON.parse(Buffer.from(body).toString('utf8'))));
  } catch {
    return body;
  }
}

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
    case 'neighbour-secret':
      return sign(step.body, env.neighbourSecret?.secret ?? env.otherSecret);
    case 'uppercase':
      return sign(step.body, env.secret).toUpperCase();
    case 'compact':
      return sign(compactForm(step.body), env.secret);
    case 'trimmed':
      return sign(ENCODER.encode(Buffer.from(step.body).toString('utf8').trim()), env.secret);
    case 'empty-object':
      return sign(ENCODER.encode('{}'), env.secret);
  }
}

export async function sendStep(ctx: OutboundDeps, env: StepEnv, step: CaseStep): Promise<StepOutcome> {
  const signature = headerFor(step, env);
  const headers: Array<[string, string]> = [];
  const contentType = step.contentType === undefined ? 'application/json' : step.contentType;
  if (contentType !== null) headers.push(['Content-Type', contentType]);
  if (signature !== null) headers.push([SIGNATURE_HEADER, signature]);
  const verdict = checkSignature(step.body, signature, [{ profile: env.secretLabel, secret: env.secret, primary: true }]);
  const report: SignatureReport = { ...verdict, notes: [NOTES[step.signature ?? 'valid'], ...verdict.notes] };
  const path = callbackPath(env.callbackPrefix, step.to);
  const detail = await sendAndRecord(
    recordingDeps(ctx, env.profile ?? undefined, { prefix: env.callbackPrefix, amounts: env.amounts, currency: env.currency }),
    {
      request: { url: joinUrl(env.base, path), method: 'POST', headers, body: step.body, timeoutMs: env.timeoutMs, allowSelfSigned: env.allowSelfSigned },
      origin: env.origin,
      sourceId: null,
      signature: report,
      tags: env.tags,
    },
  );
  return {
    label: step.label,
    exchangeId: detail.id,
    path,
    sentIds: idsOf(step.body),
    status: detail.response?.status ?? null,
    body: detail.response ? Buffer.from(detail.response.bodyBase64, 'base64').toString('utf8') : null,
    error: detail.error,
  };
}

function idsOf(body: Uint8Array): string[] {
  try {
    const value = JSON.parse(Buffer.from(body).toString('utf8')) as Record<string, unknown>;
    return ['userId', 'depositId', 'roomId'].map((k) => value[k]).filter((v): v is string => typeof v === 'string');
  } catch {
    return [];
  }
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
