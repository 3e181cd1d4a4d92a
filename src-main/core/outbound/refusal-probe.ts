// Why an operator refuses a correctly signed callback. An operator that verifies a re-serialization of
// the body (JSON.stringify(req.body) after a JSON parser, json.dumps(request.json), json_encode of the
// decoded body) rather than the bytes it received refuses every body the platform did not happen to
// write that way. The explainer sends the same message again: first the refused bytes as they were
// (is the refusal reproducible?), then each common re-serialization, each signed over exactly what it
// sends, and stops at the first the operator accepts: that one names what the operator signs. It sends
// traffic to the operator (an accepted pay is a real payment), so it runs only when someone asks.
import type { ExchangeOrigin, HeaderList, RefusalExplanation, RefusalProbe, SignatureReport } from '../../shared/model';
import { checkSignature, sign } from '../signing';
import { BODY_VARIANTS, variantInput, type BodyVariant } from '../signing/variants';
import type { CallbackSettings } from '../protocol/callback-settings';
import { recordingDeps, type OutboundDeps } from './deps';
import { SIGNATURE_HEADER, withHeader } from './headers';
import { sendAndRecord } from './record';

/** A refused message: its exchange, and the request as it reached the operator. */
export interface RefusedMessage {
  id: number;
  headers: HeaderList;
  body: Uint8Array;
}

/** One send of the explainer: the bytes and the headers they go with (signed over those bytes). */
export interface ProbeSend {
  variant: string;
  label: string;
  headers: HeaderList;
  body: Uint8Array;
}

export interface ProbeAnswer {
  exchangeId: number;
  status: number | null;
  error: string | null;
}

/** Sends one probe and says what came back; the desk's records it as an exchange linked to the refused one. */
export type ProbeSender = (send: ProbeSend) => Promise<ProbeAnswer>;

/** A re-serialization to try, with how a report names what the operator then verifies. */
interface Candidate {
  variant: string;
  /** What the operator verifies, when this one is accepted. */
  verifies: string;
  /** When the platform's bytes are refused, for that operator. */
  refusedWhen: string;
  make(body: Uint8Array): Uint8Array | null;
}

const variant = (id: string): BodyVariant => {
  const found = BODY_VARIANTS.find((v) => v.variant === id);
  if (!found) throw new Error(`No body variant "${id}".`);
  return found;
};

const fromVariant = (id: string, verifies: string, refusedWhen: string): Candidate => ({
  variant: id,
  verifies,
  refusedWhen,
  make: (body) => variant(id).make(variantInput(body)),
});

/** What PHP's trim() strips from both ends (ASCII only, so the bytes are trimmed, never re-encoded). */
const TRIMMED_BYTES = new Set([0x20, 0x09, 0x0a, 0x0d, 0x00, 0x0b]);

function trimmed(body: Uint8Array): Uint8Array | null {
  let start = 0;
  let end = body.length;
  while (start < end && TRIMMED_BYTES.has(body[start]!)) start++;
  while (end > start && TRIMMED_BYTES.has(body[end - 1]!)) end--;
  return start === 0 && end === body.length ? null : body.slice(start, end);
}

/**
 * The smallest change first (as in the signature diagnosis: when two explain a send, the smaller is the
 * likelier), then in order of how common the operator code behind them is: JSON.stringify(req.body) first.
 */
const CANDIDATES: readonly Candidate[] = [
  {
    variant: 'trimmed',
    verifies: "the body with surrounding whitespace trimmed, like PHP's trim($body)",
    refusedWhen: 'they start or end with whitespace',
    make: trimmed,
  },
  fromVariant('compact-json', 'compact JSON, like JSON.stringify(req.body)', 'not compact'),
  fromVariant(
    'python-json-dumps',
    'the body as Python\'s json.dumps writes it by default (", " and ": " separators, non-ASCII as \\uXXXX)',
    'not spaced exactly that way',
  ),
  fromVariant(
    'python-json-dumps-compact',
    'compact JSON with non-ASCII as \\uXXXX escapes, like Python\'s json.dumps(..., separators=(",", ":"))',
    'not compact with ASCII escapes',
  ),
  fromVariant(
    'php-json-encode',
    "the body as PHP's json_encode(json_decode($body)) writes it (compact, slashes as \\/, non-ASCII as \\uXXXX)",
    'not written exactly that way',
  ),
  fromVariant('sorted-keys', 'compact JSON with its keys sorted', 'not compact with sorted keys'),
  fromVariant('go-encoding-json', "the body as Go's encoding/json re-encodes it (compact, <, > and & escaped)", 'not written exactly that way'),
];

const AS_RECEIVED = 'as-received';
const is2xx = (status: number | null): boolean => status !== null && status >= 200 && status < 300;
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

function labelOf(c: Candidate): string {
  return c.variant === 'trimmed' ? 'the body trimmed of surrounding whitespace' : variant(c.variant).label;
}

/** The sends, each distinct in bytes: the refused bytes first, then every re-serialization that differs from all before it. */
interface PlannedSend extends ProbeSend {
  /** null for the refused bytes themselves. */
  candidate: Candidate | null;
  /** Later candidates that make the same bytes: an acceptance fits them too. */
  sameBytes: Candidate[];
}

/** The sends, each distinct in bytes: the refused bytes first, then every re-serialization that differs from all before it. */
function plannedSends(message: RefusedMessage, secret: string): PlannedSend[] {
  const signed = (body: Uint8Array): HeaderList => withHeader(message.headers, SIGNATURE_HEADER, sign(body, secret));
  const sends: PlannedSend[] = [
    {
      variant: AS_RECEIVED,
      label: 'the refused bytes, signed over them again',
      headers: signed(message.body),
      body: message.body,
      candidate: null,
      sameBytes: [],
    },
  ];
  for (const candidate of CANDIDATES) {
    const body = candidate.make(message.body);
    if (body === null) continue;
    const earlier = sends.find((s) => sameBytes(s.body, body));
    if (earlier) earlier.sameBytes.push(candidate);
    else sends.push({ variant: candidate.variant, label: labelOf(candidate), headers: signed(body), body, candidate, sameBytes: [] });
  }
  return sends;
}

function finding(probes: RefusalProbe[], accepted: PlannedSend | null, sourceId: number, tried: number): RefusalExplanation {
  const base = { sourceId, probes };
  const candidate = accepted?.candidate ?? null;
  if (accepted !== null && candidate !== null) {
    const alike = accepted.sameBytes.map((c) => c.verifies);
    return {
      ...base,
      finding: 'reserialization',
      accepted: { variant: candidate.variant, label: labelOf(candidate) },
      explanation:
        `The operator verifies a re-serialization of the body (${candidate.verifies}), not the bytes received; ` +
        `the platform's bytes will be refused whenever they are ${candidate.refusedWhen}. ` +
        (alike.length > 0 ? `The accepted bytes are also ${alike.join('; and ')}: a body that differs in more than that would tell them apart. ` : '') +
        'The operator must compute the HMAC over the raw request body, before any JSON parsing.',
    };
  }
  const control = probes[0];
  if (control && is2xx(control.status)) {
    return {
      ...base,
      finding: 'accepted-as-sent',
      accepted: null,
      explanation:
        `The operator accepted the same bytes, signed the same way, now (${control.status}): the refusal was not about how the body is written. ` +
        "Look at what changed since: the operator's state for this deposit, the secret it held then, or a passing failure.",
    };
  }
  if (probes.every((p) => p.status === null)) {
    return {
      ...base,
      finding: 'unreachable',
      accepted: null,
      explanation: `The operator could not be reached, so nothing was learned: ${control?.error ?? 'no answer'}.`,
    };
  }
  return {
    ...base,
    finding: 'none-accepted',
    accepted: null,
    explanation:
      `None of the common re-serializations was accepted (${tried} sent, each signed over its own bytes): ` +
      'the operator refuses this message however it is written, so the cause is not the spelling of the body. ' +
      'Check that the operator holds the same signing secret (compare fingerprints), and read its logs for this request.',
  };
}

/**
 * Probes the operator with the refused message re-serialized the common ways and names what it
 * verifies. `secret` is the shared signing secret; `send` delivers and records each probe.
 */
export async function explainRefusal(message: RefusedMessage, secret: string, send: ProbeSender): Promise<RefusalExplanation> {
  const probes: RefusalProbe[] = [];
  let accepted: PlannedSend | null = null;
  for (const planned of plannedSends(message, secret)) {
    const answer = await send({ variant: planned.variant, label: planned.label, headers: planned.headers, body: planned.body });
    probes.push({ variant: planned.variant, label: planned.label, ...answer, accepted: is2xx(answer.status) });
    // The first acceptance ends it: each further send would be one more payment. The refused bytes
    // accepted now leave nothing to learn from re-serializations.
    if (is2xx(answer.status)) {
      accepted = planned;
      break;
    }
  }
  return finding(probes, accepted, message.id, probes.length);
}

/** Where the probes go and how they are recorded. */
export interface ProbeTarget {
  /** The full URL the refused message was posted to. */
  url: string;
  method: string;
  /** The profile whose secrets judge and redact the records (default: the active one). */
  profile?: string;
  /** The callback prefix and amounts the records are judged under. */
  settings: CallbackSettings | null;
  /** The label of the signing secret in the records' verdicts (a profile name). */
  secretLabel: string;
  secret: string;
  allowSelfSigned: boolean;
  timeoutMs: number;
  origin: ExchangeOrigin;
  tags: string[];
}

/** A sender that records each probe as an outbound exchange linked to the refused one (sourceId), like a replay. */
export function recordingProbeSender(ctx: OutboundDeps, refusedId: number, target: ProbeTarget): ProbeSender {
  return async (probe) => {
    const verdict = checkSignature(probe.body, sign(probe.body, target.secret), [{ profile: target.secretLabel, secret: target.secret, primary: true }]);
    const report: SignatureReport = { ...verdict, notes: [`Refusal probe: ${probe.label}, signed over the exact bytes sent.`, ...verdict.notes] };
    const detail = await sendAndRecord(recordingDeps(ctx, target.profile, target.settings), {
      request: {
        url: target.url,
        method: target.method,
        headers: probe.headers,
        body: probe.body,
        timeoutMs: target.timeoutMs,
        allowSelfSigned: target.allowSelfSigned,
      },
      origin: target.origin,
      sourceId: refusedId,
      signature: report,
      tags: [...target.tags, 'refusal-probe', `refusal-probe:${probe.variant}`],
    });
    return { exchangeId: detail.id, status: detail.response?.status ?? null, error: detail.error };
  };
}
