import { performance } from 'node:perf_hooks';
import type { Diagnosis } from '../../shared/model';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../protocol/json-body';
import { sign } from './sign';
import { BODY_VARIANTS, variantInput, type BodyVariant, type VariantInput } from './variants';

/**
 * Diagnosis runs on the proxy's event loop for every mismatch: each re-serialization parses, walks and
 * encodes the whole body, so a 250 KB array tried a dozen ways held every other capture for ~90 ms.
 * Callbacks are a few hundred bytes; the budget is in bytes (a body over MAX_RESERIALIZED_BYTES gets no
 * re-serialization, and the re-serializations of one body produce at most RESERIALIZATION_BUDGET_BYTES
 * together) and, for a body over 8 KiB, in time (none starts after RESERIALIZATION_BUDGET_MS). Where the budget cuts the
 * diagnosis, its list of what was tried says so.
 */
export const MAX_RESERIALIZED_BYTES = 64 * 1024;
export const RESERIALIZATION_BUDGET_BYTES = 256 * 1024;
export const RESERIALIZATION_BUDGET_MS = 10;
/** Bodies up to this size are tried every way whatever the time it takes (the byte budget still holds). */
const ALWAYS_DIAGNOSED_BYTES = 8 * 1024;
export const DIAGNOSIS_CUT = 'diagnosis cut at the budget';

export interface SecretCandidate {
  /** The profile that holds the secret; shown to the user, never the secret. */
  profile: string;
  secret: string;
  /** The secret the verdict was computed with (the active or chosen profile's). */
  primary?: boolean;
  /** The profile's secret being rotated out: valid for the primary's profile, a diagnosis for another's. */
  previous?: boolean;
}

/**
 * A variant that fails (a value the engine cannot re-serialize) is one that does not apply: diagnosis runs
 * on the proxy's request path and must never throw.
 */
function makeVariant(v: BodyVariant, input: VariantInput): Uint8Array | null {
  try {
    return v.make(input);
  } catch {
    return null;
  }
}

const capitalized = (s: string): string => `${s[0]!.toUpperCase()}${s.slice(1)}`;

/**
 * The secret a verdict was computed with, as a diagnosis names it: a capture's own profile, a check's
 * profile, or a secret given for one run (a label such as "custom secret" or "--secret-env NAME").
 */
function verifiedWith(primary: SecretCandidate | undefined): string {
  if (!primary) return 'the secret it was verified with';
  const label = primary.profile;
  if (label === 'custom secret') return 'the custom secret it was verified with';
  if (label.startsWith('--')) return `the secret of ${label} it was verified with`;
  return `the secret of profile "${label}" it was verified with`;
}

/** The later variants that write the same bytes as the one that matched: the body cannot tell them apart. */
function sameOutput(matched: BodyVariant, bytes: Uint8Array, input: VariantInput): string[] {
  const after = BODY_VARIANTS.slice(BODY_VARIANTS.indexOf(matched) + 1);
  return after.filter((v) => v.reserializes && matched.reserializes && sameBytes(makeVariant(v, input), bytes)).map((v) => v.label);
}

function sameBytes(a: Uint8Array | null, b: Uint8Array): boolean {
  return a !== null && a.length === b.length && a.every((x, i) => x === b[i]);
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
    const which = `the ${other.previous ? 'previous ' : ''}secret of profile "${other.profile}"`;
    tried.push(which);
    if (hexEquals(sign(bytes, other.secret), headerValue)) {
      return {
        summary: `The body was signed with ${which}, not with ${verifiedWith(primary)}.`,
        match: { variant: other.previous ? 'other-previous-secret' : 'other-secret', label: which, profile: other.profile },
        tried,
      };
    }
  }

  if (primary) {
    const input = variantInput(bytes);
    // JSON.stringify and key sorting recurse once per level: a deeply nested body would overflow the stack.
    const tooLarge = bytes.length > MAX_RESERIALIZED_BYTES;
    const tooDeep = !tooLarge && nestedDeeperThan(bytes, MAX_JSON_DEPTH);
    if (tooLarge) tried.push(`no re-serializations (the body is over ${MAX_RESERIALIZED_BYTES / 1024} KiB)`);
    if (tooDeep) tried.push(`no re-serializations (the body is nested deeper than ${MAX_JSON_DEPTH} levels)`);
    const started = performance.now();
    // A callback-sized body is always tried every way: a busy machine must not change its diagnosis.
    const timed = bytes.length > ALWAYS_DIAGNOSED_BYTES;
    let produced = 0;
    let cut = 0;
    for (const v of BODY_VARIANTS) {
      if (v.reserializes && (tooLarge || tooDeep)) continue;
      if (v.reserializes && (produced >= RESERIALIZATION_BUDGET_BYTES || (timed && performance.now() - started >= RESERIALIZATION_BUDGET_MS))) {
        cut++;
        continue;
      }
      const alt = makeVariant(v, input);
      if (alt === null) continue;
      if (v.reserializes) produced += alt.byteLength;
      tried.push(v.label);
      if (hexEquals(sign(alt, primary.secret), headerValue)) {
        const alike = sameOutput(v, alt, input);
        const also = alike.length > 0 ? ` ${capitalized(alike.join('; '))} would write these same bytes.` : '';
        return {
          summary: `The sender signed ${v.label}, not the bytes it sent.${also} The signature must be computed over the exact bytes of the request body.`,
          match: { variant: v.variant, label: v.label },
          tried,
        };
      }
    }
    if (cut > 0)
      tried.push(
        `${DIAGNOSIS_CUT} (${RESERIALIZATION_BUDGET_BYTES / 1024} KiB or ${RESERIALIZATION_BUDGET_MS} ms of re-serializations): ${cut} more not tried`,
      );
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
