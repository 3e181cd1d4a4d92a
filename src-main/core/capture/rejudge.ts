// Judging a stored capture's signature again with the secrets a profile has now: the same verdict and
// diagnosis the judge gives a request as it arrives (the same header reading, the same checkSignature),
// over the bytes the log kept.
import type { HeaderList, SignatureReport } from '../../shared/model';
import { checkSignature, SIGNATURE_HEADER, type SecretCandidate } from '../signing';
import { headerValue } from './judge';

/** Bytes the judge wrote over a stored secret: the body is no longer what was signed. */
const REDACTION_MARK = Buffer.from('[redacted sha256:');

/**
 * The signature report of a stored request, or null when its stored body is not the body that was
 * signed (a secret in it was redacted): judging it again would call a good signature a mismatch.
 */
export function rejudgeSignature(stored: { headers: HeaderList; body: Uint8Array }, candidates: readonly SecretCandidate[]): SignatureReport | null {
  const body = Buffer.from(stored.body.buffer, stored.body.byteOffset, stored.body.byteLength);
  if (body.includes(REDACTION_MARK)) return null;
  return checkSignature(body, headerValue(stored.headers, SIGNATURE_HEADER), candidates);
}
