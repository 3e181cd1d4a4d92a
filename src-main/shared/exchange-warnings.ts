// What an exchange's row alone says is bad news, in the words support staff read: an operator that
// accepted a badly signed callback, and an answer the desk made itself (the operator never answered).
// Shared so the list, the detail, the timeline and the ticket bundle say it the same way.
import type { ExchangeSummary, Verdict } from './model';

type Row = Pick<ExchangeSummary, 'direction' | 'error'> & { signature: { verdict: Verdict | null }; response: { status: number } | null };

const BAD_VERDICTS: ReadonlySet<Verdict> = new Set(['mismatch', 'missing', 'malformed']);

/**
 * The verdict of a callback that is known to be badly signed and still got a 2XX, or null. `no-secret`
 * is left out: the desk could not check it, so it does not know the operator was wrong.
 */
export function acceptedBadSignature(x: Row): Verdict | null {
  const verdict = x.signature.verdict;
  if (verdict === null || !BAD_VERDICTS.has(verdict) || x.response === null) return null;
  return x.response.status >= 200 && x.response.status < 300 ? verdict : null;
}

const ACCEPTED_WHAT: Record<Verdict, string> = {
  mismatch: 'a callback whose signature does not match its body',
  missing: 'a callback with no signature',
  malformed: 'a callback whose signature is malformed',
  valid: 'a callback with a valid signature',
  'no-secret': 'a callback whose signature it could not have checked',
};

export function acceptedBadSignatureText(verdict: Verdict): string {
  return `the operator accepted ${ACCEPTED_WHAT[verdict]}`;
}

/**
 * Whether the response was made by the desk's proxy rather than relayed from the operator (or the
 * sandbox): the proxy records why whenever it answers in the operator's place (upstream refused,
 * timed out, a body too large, a broken request), and a relayed answer has no error.
 */
export function deskAnswered(x: Row): boolean {
  return x.direction === 'inbound' && x.response !== null && x.error !== null && x.error !== '';
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

/** "The desk answered 502 itself: the desk could not reach ..." for a desk-made answer, else null. */
export function deskAnswerText(x: Row): string | null {
  if (!deskAnswered(x)) return null;
  return `The desk answered ${x.response!.status} itself, not the operator: ${errorInWords(x.error!)}.`;
}
