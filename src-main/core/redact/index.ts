// Secrets never leave the desk, and never reach its database, in clear. Whatever is stored or written
// out (a captured request's method, header names and values, query, path and body; an answer's headers
// and body; error texts; HAR, cURL, tickets) passes through here: a stored secret (a signing secret, an
// API key or a balance-probe credential) in any form (secret-forms.ts: plain, hex, base64 at any alignment, percent-encoded once or
// twice, JSON-escaped) becomes "[redacted sha256:<fingerprint>]"; so does any x-api-key value at all.
// A header name or value that holds one becomes the marker whole; bodies and texts have each
// occurrence replaced (a base64 one with its whole run, so that no edge of it is left).
import type { HeaderList } from '../../shared/model';
import { MIN_REDACTED_SECRET, redactedMarker, SecretForms } from './secret-forms';

export { MIN_REDACTED_SECRET, redactedMarker } from './secret-forms';

export const API_KEY_HEADER = 'x-api-key';

const REDACTED = /^\[redacted sha256:[0-9a-f]{8}\]$/;

export function isRedacted(value: string): boolean {
  return REDACTED.test(value);
}

/** Where the desk's secrets come from (structural: the desk's context fits, and so does a test's). */
export interface SecretSource {
  signingCandidates(): ReadonlyArray<{ secret: string }>;
  readonly store: { readonly profiles: { allApiKeys(): string[]; allProbeCredentials(): string[] } };
  /** The team database's password (its forms), when the desk runs on one. */
  readonly databaseSecrets?: readonly string[];
}

/**
 * Every secret the desk holds in clear on the main side: signing secrets, API keys and balance-probe
 * credentials of all profiles, and the password of the database it runs on.
 */
export function storedSecrets(source: SecretSource): string[] {
  return secretsToRedact(
    source.signingCandidates().map((c) => c.secret),
    source.store.profiles.allApiKeys(),
    source.store.profiles.allProbeCredentials(),
    source.databaseSecrets ?? [],
  );
}

/** The distinct secrets worth redacting, from any number of lists. */
export function secretsToRedact(...lists: ReadonlyArray<readonly string[]>): string[] {
  const found = new Set<string>();
  for (const list of lists) for (const s of list) if (s.length >= MIN_REDACTED_SECRET) found.add(s);
  return [...found];
}

/** Headers with every secret in a name or a value replaced by its marker (the header whole); any x-api-key value too. */
export function redactHeaders(headers: HeaderList, secrets: readonly string[]): HeaderList {
  const forms = SecretForms.of(secrets);
  let out: Array<[string, string]> | null = null;
  for (let i = 0; i < headers.length; i++) {
    const [n, v] = headers[i]!;
    const heldInName = forms.find(n);
    const name = heldInName < 0 ? n : forms.markers[heldInName]!;
    let value = v;
    if (n.length === API_KEY_HEADER.length && n.toLowerCase() === API_KEY_HEADER) value = isRedacted(v) ? v : redactedMarker(v);
    else {
      const held = forms.find(v);
      if (held >= 0) value = forms.markers[held]!;
    }
    if (name === n && value === v) continue;
    out ??= headers.slice();
    out[i] = [name, value];
  }
  return out ?? headers;
}

/**
 * A path or query string with every secret in it replaced by its marker: every form in place where it
 * can; a segment or parameter that holds one only once decoded (partly encoded, say) becomes a marker
 * whole; and should decoding the whole text still reveal one, the text is a marker.
 */
export function redactUrlPart(text: string, secrets: readonly string[]): string {
  if (text === '' || secrets.length === 0) return text;
  const forms = SecretForms.of(secrets);
  if (forms.find(text) < 0) return text;
  let out = forms.redactText(text, false);
  if (forms.find(out) < 0) return out;
  out = out
    .split(/([/?&=;,])/)
    .map((piece) => {
      const held = forms.find(piece);
      return held < 0 ? piece : forms.markers[held]!;
    })
    .join('');
  const left = forms.find(out);
  return left < 0 ? out : forms.markers[left]!;
}

/** A text (an error message, a method, a key field) with every secret, in any form, replaced by its marker. */
export function redactText(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  const forms = SecretForms.of(secrets);
  if (forms.find(text) < 0) return text;
  const out = forms.redactText(text);
  // A form only a decoded view shows (a partly encoded secret inside a word): the text cannot be kept.
  const left = forms.find(out);
  return left < 0 ? out : forms.markers[left]!;
}

/** Bytes (a body) with every secret, in any form, replaced by its marker; the same object when none is there. */
export function redactBytes(bytes: Uint8Array, secrets: readonly string[]): { bytes: Uint8Array; found: string[] } {
  if (secrets.length === 0) return { bytes, found: [] };
  const forms = SecretForms.of(secrets);
  const out = forms.redact(bytes);
  return { bytes: out.bytes, found: out.found.map((i) => forms.secrets[i]!) };
}
