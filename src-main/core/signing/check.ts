import type { SignatureReport } from '../../shared/model';
import { diagnose, type SecretCandidate } from './diagnose';
import { verify } from './verify';

/**
 * Verify, and on a mismatch diagnose, in one call: what the proxy and the importers run on every
 * request. `candidates[0]` (or the one marked primary) is the secret the verdict is computed with.
 */
export function checkSignature(bytes: Uint8Array, headerValue: string | null | undefined, candidates: readonly SecretCandidate[]): SignatureReport {
  const primary = candidates.find((c) => c.primary) ?? candidates[0];
  const outcome = verify(bytes, headerValue, primary?.secret ?? null);
  const diagnosis = outcome.verdict === 'mismatch' && headerValue ? diagnose(bytes, headerValue, candidates) : null;
  return { verdict: outcome.verdict, notes: outcome.notes, diagnosis };
}
