import type { Diagnosis } from '../../shared/model';
import { sign } from './sign';
import { BODY_VARIANTS, variantInput } from './variants';

/**
 * Diagnosis runs on the proxy's event loop for every mismatch: parsing and re-serializing a body of many
 * megabytes six times would stall every other capture, and bodies that large are not callbacks anyway.
 */
const MAX_RESERIALIZED_BYTES = 256 * 1024;

export interface SecretCandidate {
  /** The profile that holds the secret; shown to the user, never the secret. */
  profile: string;
  secret: string;
  /** The secret the verdict was computed with (the active or chosen profile's). */
  primary?: boolean;
}

function hexEquals(a: string, b: string): boolean {
  return a.toLowerCase() === b.trim().toLowerCase();
}

/**
 * On a mismatch, finds what the sender actually signed: another stored secret, a re-serialized body, a
 * changed line ending, a BOM, or a secret with surrounding white space. The candidates' secrets never
 * appear in the result, only the profile names.
 */
export function diagnose(bytes: Uint8Array, headerValue: string, candidates: readonly SecretCandidate[]): Diagnosis {
  const tried: string[] = [];
  const primary = candidates.find((c) => c.primary);
  const others = candidates.filter((c) => c !== primary);

  for (const other of others) {
    tried.push(`the secret of profile "${other.profile}"`);
    if (hexEquals(sign(bytes, other.secret), headerValue)) {
      return {
        summary: `The body was signed with the secret of profile "${other.profile}", not the one configured for this check.`,
        match: { variant: 'other-secret', label: `the secret of profile "${other.profile}"`, profile: other.profile },
        tried,
      };
    }
  }

  if (primary) {
    const input = variantInput(bytes);
    const reserialize = bytes.length <= MAX_RESERIALIZED_BYTES;
    if (!reserialize) tried.push(`no re-serializations (the body is over ${MAX_RESERIALIZED_BYTES / 1024} KiB)`);
    for (const v of BODY_VARIANTS) {
      if (v.reserializes && !reserialize) continue;
      const alt = v.make(input);
      if (alt === null) continue;
      tried.push(v.label);
      if (hexEquals(sign(alt, primary.secret), headerValue)) {
        return {
          summary: `The sender signed ${v.label}, not the bytes it sent. The signature must be computed over the exact bytes of the request body.`,
          match: { variant: v.variant, label: v.label },
          tried,
        };
      }
    }
    const trimmedSecret = primary.secret.trim();
    const padded = [` ${primary.secret}`, `${primary.secret} `, `${primary.secret}\n`];
    const secretVariants = trimmedSecret !== primary.secret ? [trimmedSecret] : padded;
    tried.push('the secret with surrounding white space changed');
    for (const s of secretVariants) {
      if (hexEquals(sign(bytes, s), headerValue)) {
        return {
          summary: 'The sender signed with the secret plus or minus surrounding white space (a stray space or newline in its configuration).',
          match: { variant: 'secret-whitespace', label: 'the secret with surrounding white space changed' },
          tried,
        };
      }
    }
  }

  return {
    summary: primary
      ? 'No variant reproduces the signature: the sender most likely uses a different secret, or changed the body after signing it.'
      : 'No secret is available to diagnose the signature with.',
    match: null,
    tried,
  };
}
