import { timingSafeEqual } from 'node:crypto';
import type { Verdict } from '../../shared/model';
import { sign } from './sign';

export interface VerifyOutcome {
  verdict: Verdict;
  notes: string[];
  /** The digest is the right HMAC, but not in lowercase: a mismatch for any receiver that compares hex strings. */
  caseOnly?: true;
}

/** What support staff are told when the only difference is the case of the hex digits. */
export const UPPERCASE_HEX_DIAGNOSIS = 'the right HMAC, written in uppercase hex; receivers that compare hex strings reject it';

const HEX64 = /^[0-9a-fA-F]{64}$/;

/**
 * Checks an x-server-authorization value against the exact body bytes. Never throws: any header value,
 * however odd, maps to a verdict. The comparison is over the decoded 32 bytes, in constant time. A
 * digest that matches only when case is ignored is a mismatch: the spec's receiver recomputes the hex
 * digest (lowercase in every common library) and compares the strings, so it rejects the request.
 */
export function verify(bytes: Uint8Array, headerValue: string | null | undefined, secret: string | null | undefined): VerifyOutcome {
  const notes: string[] = [];
  if (headerValue === undefined || headerValue === null || headerValue === '') {
    return { verdict: 'missing', notes: ['No x-server-authorization header was sent.'] };
  }
  const trimmed = headerValue.trim();
  if (trimmed !== headerValue) {
    notes.push('The header value has surrounding white space; a strict receiver compares it as is and rejects it.');
  }
  if (!HEX64.test(trimmed)) {
    const shown = trimmed.length > 80 ? `${trimmed.slice(0, 80)}… (${trimmed.length} characters)` : `${trimmed.length} characters`;
    return { verdict: 'malformed', notes: [...notes, `Expected 64 hexadecimal characters; got ${shown}.`] };
  }
  if (secret === undefined || secret === null || secret === '') {
    return { verdict: 'no-secret', notes: [...notes, 'No signing secret is configured, so the signature cannot be checked.'] };
  }
  const expected = Buffer.from(sign(bytes, secret), 'hex');
  const received = Buffer.from(trimmed, 'hex');
  const valid = timingSafeEqual(expected, received);
  if (valid && trimmed !== trimmed.toLowerCase()) {
    notes.push(`The signature is ${UPPERCASE_HEX_DIAGNOSIS}.`);
    return { verdict: 'mismatch', notes, caseOnly: true };
  }
  return { verdict: valid ? 'valid' : 'mismatch', notes };
}
