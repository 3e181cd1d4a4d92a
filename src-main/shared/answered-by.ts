// Who made an exchange's answer: the operator (relayed from its upstream, or the sandbox standing in
// for it) or the desk itself (a fault it injected, an upstream it could not reach or that did not
// answer in time, a request it refused at the door). Derived from what every row already stores, so
// older rows read the same and the list, the detail, the timeline, the ticket and the CLI agree.
import type { AnsweredBy, Direction } from './model';

/** What the proxy's note of an applied fault holds between the fault and its effect; lists look for it. */
export const FAULT_NOTE_MARK = ' was applied: ';

/** The finding the proxy writes on a row it applied a fault to ("fault 3: answer 503 was applied: ..."). */
export function faultNote(fault: string, effect: string): string {
  return `${fault}${FAULT_NOTE_MARK}${effect}`;
}

interface ParsedFaultNote {
  id: string;
  /** "answer 503", "delay 200 ms", "no answer (timeout)", "connection reset". */
  what: string;
  effect: string;
}

const FAULT_NOTE = /^fault (\S+): (.+?) was applied: (.+)$/s;

export function parseFaultNote(message: string): ParsedFaultNote | null {
  const m = FAULT_NOTE.exec(message);
  return m ? { id: m[1]!, what: m[2]!, effect: m[3]! } : null;
}

export function isFaultNote(finding: { message: string }): boolean {
  return parseFaultNote(finding.message) !== null;
}

/** The fault note among a row's findings, or null. */
export function faultNoteOf(findings: ReadonlyArray<{ message: string }>): string | null {
  return findings.find(isFaultNote)?.message ?? null;
}

export interface AnswerFacts {
  direction: Direction;
  response: { status: number } | null;
  /** Why the proxy answered in the operator's place, or why there is no answer. */
  error: string | null;
  /** The body was cut at the size limit (such a capture is refused 413 by the proxy, never forwarded). */
  truncated: boolean;
  /** The proxy's note of a fault it applied to this exchange, or null. */
  faultNote: string | null;
}

export interface WhoAnswered {
  answeredBy: AnsweredBy | null;
  /** Why the desk answered (or withheld the answer) in the operator's place, in words; null otherwise. */
  deskCause: string | null;
}

const ERRNO_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be resolved',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the connection was closed while sending',
  CERT_HAS_EXPIRED: "the operator's certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the operator's certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "the operator's certificate chain is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the operator's certificate cannot be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "the operator's certificate is for another host name",
};

/** An error message of the proxy or of Node's sockets in plain words, e.g. "the desk could not reach the operator at 127.0.0.1:9199: connection refused". */
export function errorInWords(error: string): string {
  const timeout = /did not answer within (\d+) ms/.exec(error);
  if (timeout) return `the operator did not answer within ${timeout[1]} ms, so the desk answered in its place`;
  const errno = /\b(E[A-Z_]+|[A-Z_]*CERT[A-Z_]*)\b(?:\s+([^\s,;)]+))?/.exec(error);
  if (errno && ERRNO_WORDS[errno[1]!]) {
    const where = errno[2] && /[:.]/.test(errno[2]) ? ` at ${errno[2]}` : '';
    return `the desk could not reach the operator${where}: ${ERRNO_WORDS[errno[1]!]}`;
  }
  if (/cannot be relayed/.test(error)) return `the operator answered, but the desk could not pass the answer on (${error})`;
  return error;
}

const NOBODY: WhoAnswered = { answeredBy: null, deskCause: null };
const OPERATOR: WhoAnswered = { answeredBy: 'operator', deskCause: null };

/**
 * Who answered. An inbound capture's answer is the desk's when the proxy applied a fault that replaced
 * it (a status of its own, a held or reset connection), when the proxy recorded why it answered itself
 * (the error column next to a response: upstream unreachable or slow, a refused or unassigned request,
 * an internal error), or when the body was over the limit (refused 413, the operator never asked). A
 * delay fault leaves the answer to the operator. What the desk sends out is answered by its target.
 */
export function whoAnswered(x: AnswerFacts): WhoAnswered {
  if (x.direction !== 'inbound') return x.response ? OPERATOR : NOBODY;
  const fault = x.faultNote === null ? null : parseFaultNote(x.faultNote);
  if (fault !== null && !fault.what.startsWith('delay')) {
    return { answeredBy: 'desk', deskCause: `the desk injected fault ${fault.id} (${fault.what}): ${fault.effect}` };
  }
  if (x.response === null) return NOBODY;
  if (x.error) return { answeredBy: 'desk', deskCause: errorInWords(x.error) };
  if (x.response.status === 413 && x.truncated) {
    return { answeredBy: 'desk', deskCause: 'the body is larger than the size limit, so the desk refused it without asking the operator' };
  }
  return OPERATOR;
}
