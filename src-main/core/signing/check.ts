import type { SignatureReport } from '../../shared/model';
import { diagnose, type SecretCandidate } from './diagnose';
import { fingerprint } from './fingerprint';
import { UPPERCASE_HEX_DIAGNOSIS, verify } from './verify';

/** The note on a signature that matched the profile's secret being rotated out. */
export function previousSecretNote(profile: string, secret: string): string {
  return `Valid with the previous secret of profile "${profile}" (sha256:${fingerprint(secret)}): the sender still signs with the secret being rotated out.`;
}

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
      diagnosis: {
        summary: UPPERCASE_HEX_DIAGNOSIS,
        match: { variant: 'uppercase-hex', label: 'the right HMAC in uppercase hex' },
        tried: ['the hex digits in lowercase'],
      },
    };
  }
  if (outcome.verdict === 'valid') return { verdict: 'valid', notes: outcome.notes, diagnosis: null, secret: 'current' };
  // During a rotation the profile's previous secret is as good as its current one: Stripe and Svix
  // accept both. Only the primary's own previous secret decides; another profile's only explains.
  const previous = primary && outcome.verdict === 'mismatch' ? candidates.find((c) => c.previous && c.profile === primary.profile) : undefined;
  if (previous) {
    const again = verify(bytes, headerValue, previous.secret);
    if (again.verdict === 'valid')
      return { verdict: 'valid', notes: [...again.notes, previousSecretNote(previous.profile, previous.secret)], diagnosis: null, secret: 'previous' };
  }
  const diagnosis =
    outcome.verdict === 'mismatch' && headerValue
      ? diagnose(
          bytes,
          headerValue,
          candidates.filter((c) => c !== previous),
        )
      : null;
  return { verdict: outcome.verdict, notes: outcome.notes, diagnosis };
}
