import type { SignatureReport } from '../../shared/model';
import { diagnose, type SecretCandidate } from './diagnose';
import { UPPERCASE_HEX_DIAGNOSIS, verify } from './verify';

/**
 * Verify, and on a mismatch diagnose, in one call: what the proxy and the importers run on every
 * request. The verdict is computed with the candidate marked primary; without one the verdict is
 * no-secret (or missing/malformed): another profile's secret may explain a mismatch, never judge one.
 */
export function checkSignature(bytes: Uint8Array, headerValue: string | null | undefined, candidates: readonly SecretCandidate[]): SignatureReport {
  const primary = candidates.find((c) => c.primary);
  const outcome = verify(bytes, headerValue, primary?.secret ?? null);
  if (outcome.caseOnly) {
    return {
      verdict: outcome.verdict,
      notes: outcome.notes,
      diagnosis: { summary: UPPERCASE_HEX_DIAGNOSIS, match: { variant: 'uppercase-hex', label: 'the right HMAC in uppercase hex' }, tried: ['the hex digits in lowercase'] },
    };
  }
  const diagnosis = outcome.verdict === 'mismatch' && headerValue ? diagnose(bytes, headerValue, candidates) : null;
  return { verdict: outcome.verdict, notes: outcome.notes, diagnosis };
}
