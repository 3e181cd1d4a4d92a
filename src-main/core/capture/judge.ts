// The judge: how any request becomes its row in the exchange log, whichever way it came in (the
// proxy, a HAR import, an outbound send, a test). One function decides the kind, whether a signature
// applies, the verdict and its diagnosis, the findings and the key fields from ONE decode and parse
// of the body, bounds what is stored of the findings, and redacts every stored secret wherever it
// appears in what is kept, in any form (../redact): method, header names and values, path, query,
// target, body, findings, the signature's notes and diagnosis, the key fields.
//
// A body is kept byte for byte (signatures are over the exact bytes), with one exception: a body that
// holds a stored secret in any form has it replaced by the secret's marker, and a finding says so. The
// verdict is judged first, on the bytes as received; only the stored copy differs. Keeping the secret
// would break the stronger promise (no secret in the database), and a sender that puts the shared
// secret in a callback body has a bug worth an error of its own.
import type { AmountsMode, ExchangeKind, Finding, HeaderList, KeyFields, SignatureReport } from '../../shared/model';
import { inspectParsed, type MessageKind } from '../protocol/inspect';
import type { BodyRead } from '../protocol/json-body';
import { amountFindings, DEFAULT_AMOUNTS } from '../protocol/amounts';
import { extractKeyFields, NO_KEY_FIELDS } from '../protocol/key-fields';
import { redactBytes, redactedMarker, redactHeaders, redactText, redactUrlPart } from '../redact';
import { checkSignature, SIGNATURE_HEADER, type SecretCandidate } from '../signing';
import type { NewExchange } from './new-exchange';
import { boundFindings, requestFindingsBudget } from './bounds';
import { routeOf } from './kind';

/**
 * A request as it was received or sent, before anything is judged or redacted: the row without what the
 * judge decides (kind, signature, findings, key fields), so the two cannot drift apart.
 */
export interface CapturedRequest extends Omit<NewExchange, 'kind' | 'signature' | 'findings' | 'keys' | 'scheme'> {
  /** Headers the receiver dropped beyond its count limit (Node's maxHeadersCount), when it could tell. */
  headersAtLimit?: boolean;
  /** How the request arrived (the proxy serves http or https); absent: not known. */
  scheme?: 'http' | 'https';
}

/** What a request is judged with. */
export interface JudgingContext {
  /** Signing secrets: the primary decides the verdict, the others may explain a mismatch. */
  candidates: readonly SecretCandidate[];
  /** Every stored secret and API key: none of them is stored in clear. */
  secrets: readonly string[];
  /** The profile's callback prefix (default /platform). */
  callbackPrefix?: string;
  /** How the profile's operator writes amounts (default integer minor units): a fraction is an error there. */
  amounts?: AmountsMode;
  /** The profile the request belongs to (whose prefix received it, or that sent it); absent or null: unassigned. */
  profile?: string | null;
}

export interface JudgeOptions {
  /** A sender's own report (an outbound send states how it signed); default: verified here. */
  signature?: SignatureReport | null;
  /** Findings the receiver made before judging (a body cut at the limit, say), stored first. */
  findings?: Finding[];
  /** Record only: the request never arrived whole (or was refused before it could be read), so nothing is judged. */
  unjudged?: boolean;
  /**
   * With `unjudged`: the body did arrive whole, only no profile's secret can judge it (no callback prefix
   * received it). Its key fields are still read, so the lists show what the body says it is about.
   */
  keysRead?: boolean;
}

export interface Judgment {
  row: NewExchange;
  kind: ExchangeKind;
  /** The one parse of the body (null when it was not judged), for whoever reads the body next. */
  read: BodyRead | null;
}

const MESSAGE_OF: Record<ExchangeKind, MessageKind | null> = { pay: 'pay', results: 'results', token: 'token-request', other: null };

/** A header's value, repeated ones joined as HTTP joins them (what the signature is read from). */
export function headerValue(headers: HeaderList, name: string): string | undefined {
  let found: string | undefined;
  for (const [n, v] of headers) if (n.toLowerCase() === name) found = found === undefined ? v : `${found}, ${v}`;
  return found;
}

const CUT_SIGNATURE = (limit: number): SignatureReport => ({
  verdict: null,
  notes: [`The body was cut at ${limit} bytes, so its signature could not be checked.`],
  diagnosis: null,
});

/** Turns a request into its row. Never throws on the request's content (only on a bug). */
export function judge(request: CapturedRequest, context: JudgingContext, options: JudgeOptions = {}): Judgment {
  const route = routeOf(request.path, context.callbackPrefix);
  const kind = route.kind;
  const findings: Finding[] = [...(options.findings ?? []), ...route.findings];
  let signature: SignatureReport | null = null;
  let keys: KeyFields = { ...NO_KEY_FIELDS };
  let read: BodyRead | null = null;

  if (!options.unjudged) {
    const header = headerValue(request.headers, SIGNATURE_HEADER);
    if (request.truncated) signature = CUT_SIGNATURE(request.body.byteLength);
    // A signature applies to the callbacks, and to anything else that carries one.
    else if (options.signature !== undefined) signature = options.signature;
    else if (kind === 'pay' || kind === 'results' || header !== undefined) signature = checkSignature(request.body, header, context.candidates);
    if (!request.truncated) {
      const judged = inspectParsed(MESSAGE_OF[kind], request.body);
      findings.push(...judged.findings);
      keys = judged.keys;
      if (kind === 'pay' || kind === 'results') findings.push(...amountFindings(kind, keys, context.amounts ?? DEFAULT_AMOUNTS));
      read = judged.read;
    }
  } else if (options.keysRead && !request.truncated) keys = extractKeyFields(request.body);
  if (request.headersAtLimit) {
    findings.push({
      level: 'warning',
      path: '$',
      message: 'the request had as many headers as the proxy reads: any after them were dropped, and are not stored or forwarded',
    });
  }

  const secrets = context.secrets;
  const body = redactBytes(request.body, secrets);
  if (body.found.length > 0) {
    findings.unshift({
      level: 'error',
      path: '$',
      message: `the body holds a stored secret (${body.found.map(redactedMarker).join(', ')}): it is stored with the marker in its place; the verdict was judged on the bytes as received`,
    });
  }

  const row: NewExchange = {
    direction: request.direction,
    kind,
    origin: request.origin,
    at: request.at,
    method: redactText(request.method, secrets),
    path: redactUrlPart(request.path, secrets),
    query: redactUrlPart(request.query, secrets),
    target: request.target === null ? null : redactUrlPart(request.target, secrets),
    headers: redactHeaders(request.headers, secrets),
    body: body.bytes,
    size: request.size,
    truncated: request.truncated,
    remoteAddress: request.remoteAddress,
    signature: redactSignature(signature, secrets),
    // A finding may quote what arrived (a header, a key, a value): redacted like everything else kept.
    findings: boundFindings(redactFindings(findings, secrets), requestFindingsBudget(request.body.byteLength)),
    keys: redactKeys(keys, secrets),
    sourceId: request.sourceId,
    ...(request.tags && request.tags.length > 0 ? { tags: request.tags } : {}),
    ...(request.scheme ? { scheme: request.scheme } : {}),
    ...(context.profile ? { profile: context.profile } : {}),
  };
  return { row, kind, read };
}

function redactFindings(findings: Finding[], secrets: readonly string[]): Finding[] {
  if (secrets.length === 0) return findings;
  return findings.map((f) => {
    const message = redactText(f.message, secrets);
    const path = redactText(f.path, secrets);
    return message === f.message && path === f.path ? f : { ...f, message, path };
  });
}

/** Key fields are indexed columns: a secret in one (a userId that is the API key, in any form) is redacted too. */
function redactKeys(keys: KeyFields, secrets: readonly string[]): KeyFields {
  if (secrets.length === 0) return keys;
  let out = keys;
  for (const name of ['depositId', 'userId', 'result', 'gameId', 'currency', 'tournamentId'] as const) {
    const v = keys[name];
    const redacted = v === null ? v : redactText(v, secrets);
    if (redacted !== v) out = { ...out, [name]: redacted };
  }
  return out;
}

/** The signature's notes and diagnosis may quote what arrived (a header, part of the body): redacted too. */
function redactSignature(report: SignatureReport | null, secrets: readonly string[]): SignatureReport | null {
  if (report === null || secrets.length === 0) return report;
  const notes = report.notes.map((n) => redactText(n, secrets));
  let diagnosis = report.diagnosis;
  if (diagnosis !== null) {
    const text = JSON.stringify(diagnosis);
    const redacted = redactText(text, secrets);
    // Redacted inside its JSON text; should that no longer parse, the diagnosis is not kept.
    if (redacted !== text) diagnosis = parsedOr(redacted, null);
  }
  return notes.every((n, i) => n === report.notes[i]) && diagnosis === report.diagnosis ? report : { ...report, notes, diagnosis };
}

function parsedOr<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
