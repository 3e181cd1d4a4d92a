// Secrets never leave the desk, and never reach its database, in clear. Whatever is stored or written
// out (a captured request's headers, query and path; an answer's headers and body; HAR, cURL, tickets)
// passes through here: any value that holds a stored secret (a signing secret, an API key, a balance-probe
// credential), plainly,
// URL-encoded, inside `Authorization: Basic` credentials, and any x-api-key value at all, becomes
// "[redacted sha256:<fingerprint>]". Answers of services (a token endpoint that echoes the key) are
// also searched for the encodings a service may use: JSON escapes, URL encoding, base64, hex.
import type { HeaderList } from '../shared/model';
import { fingerprint } from './signing';

export const API_KEY_HEADER = 'x-api-key';

const REDACTED = /^\[redacted sha256:[0-9a-f]{8}\]$/;

/** A one-character "secret" would redact half the headers; such a secret protects nothing anyway. */
export const MIN_REDACTED_SECRET = 4;

/** The marker that stands in for a secret: enough to tell two secrets apart, nothing to recover one. */
export function redactedMarker(secret: string): string {
  return `[redacted sha256:${fingerprint(secret)}]`;
}

export function isRedacted(value: string): boolean {
  return REDACTED.test(value);
}

/** Where the desk's secrets come from (structural: the desk's context fits, and so does a test's). */
export interface SecretSource {
  signingCandidates(): ReadonlyArray<{ secret: string }>;
  readonly store: { readonly profiles: { allApiKeys(): string[]; allProbeCredentials(): string[] } };
}

/** Every secret the desk holds in clear on the main side: signing secrets, API keys and balance-probe credentials of all profiles. */
export function storedSecrets(source: SecretSource): string[] {
  return secretsToRedact(
    source.signingCandidates().map((c) => c.secret),
    source.store.profiles.allApiKeys(),
    source.store.profiles.allProbeCredentials(),
  );
}

/** The distinct secrets worth redacting, from any number of lists. */
export function secretsToRedact(...lists: ReadonlyArray<readonly string[]>): string[] {
  const found = new Set<string>();
  for (const list of lists) for (const s of list) if (s.length >= MIN_REDACTED_SECRET) found.add(s);
  return [...found];
}

/** The secret held by a text: plainly, URL-encoded (either form), or as Basic credentials; undefined if none. */
function heldIn(value: string, secrets: readonly string[]): string | undefined {
  if (secrets.length === 0) return undefined;
  const views = [value];
  if (value.includes('%') || value.includes('+')) views.push(urlDecoded(value, true), urlDecoded(value, false));
  const basic = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(value);
  if (basic) views.push(Buffer.from(basic[1]!, 'base64').toString('utf8'));
  return secrets.find((s) => views.some((v) => v.includes(s)));
}

/** Percent-decoded; `plusIsSpace` as in a form-encoded query (a path keeps its "+"). */
function urlDecoded(text: string, plusIsSpace: boolean): string {
  const plus = plusIsSpace ? text.replace(/\+/g, ' ') : text;
  try {
    return decodeURIComponent(plus);
  } catch {
    // A stray % would make the whole text undecodable: decode the valid escapes one by one.
    return plus.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** One header value with any secret replaced by its marker. */
function redactValue(name: string, value: string, secrets: readonly string[]): string {
  if (isRedacted(value)) return value;
  if (name.toLowerCase() === API_KEY_HEADER) return redactedMarker(value);
  const held = heldIn(value, secrets);
  return held === undefined ? value : redactedMarker(held);
}

export function redactHeaders(headers: HeaderList, secrets: readonly string[]): HeaderList {
  return headers.map(([n, v]) => [n, redactValue(n, v, secrets)]);
}

/**
 * A path or query string with every secret in it replaced by its marker: plain or percent-encoded
 * forms in place; a segment or parameter that holds one only once decoded (partly encoded, say)
 * becomes a marker whole; and should decoding the whole text still reveal one, the text is a marker.
 */
export function redactUrlPart(text: string, secrets: readonly string[]): string {
  if (text === '' || secrets.length === 0) return text;
  let out = text;
  for (const s of secrets) {
    for (const form of urlForms(s)) if (out.includes(form)) out = out.split(form).join(redactedMarker(s));
  }
  if (heldIn(out, secrets) === undefined) return out;
  out = out
    .split(/([/?&=;,])/)
    .map((piece) => {
      const held = heldIn(piece, secrets);
      return held === undefined ? piece : redactedMarker(held);
    })
    .join('');
  const left = heldIn(out, secrets);
  return left === undefined ? out : redactedMarker(left);
}

// The proxy redacts every request's path and query: the forms of each secret are made once.
const URL_FORMS = new Map<string, string[]>();

function urlForms(secret: string): string[] {
  let forms = URL_FORMS.get(secret);
  if (forms === undefined) {
    forms = [
      ...new Set([
        secret,
        encodeURIComponent(secret),
        encodeURIComponent(secret).replace(/%20/g, '+'),
        percentEncodedAll(secret, false),
        percentEncodedAll(secret, true),
      ]),
    ];
    if (URL_FORMS.size >= 64) URL_FORMS.clear();
    URL_FORMS.set(secret, forms);
  }
  return forms;
}

function percentEncodedAll(secret: string, upper: boolean): string {
  const hex = Buffer.from(secret, 'utf8').toString('hex');
  const pairs = hex.match(/../g) ?? [];
  return pairs.map((p) => `%${upper ? p.toUpperCase() : p}`).join('');
}

/** A text (an error message) with every secret replaced by its marker. */
export function redactText(text: string, secrets: readonly string[]): string {
  return secrets.reduce((t, s) => (t.includes(s) ? t.split(s).join(redactedMarker(s)) : t), text);
}

/**
 * The forms in which a service may echo a secret in a body: as is, JSON-escaped (`\/`, every
 * character as `\uXXXX`), URL-encoded, hex, and base64 / base64url at each of the three alignments
 * (only the characters made of the secret's bits alone, which do not depend on the bytes around it).
 */
export function encodedForms(secret: string): string[] {
  const raw = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([
    secret,
    JSON.stringify(secret).slice(1, -1),
    JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
    [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join(''),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    percentEncodedAll(secret, false),
    percentEncodedAll(secret, true),
    raw.toString('hex'),
    raw.toString('hex').toUpperCase(),
  ]);
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), raw]).toString('base64');
    const core = encoded.slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + raw.length) * 8) / 6));
    if (core.length >= MIN_REDACTED_SECRET) {
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...forms];
}

function replaceAll(data: Buffer, needle: Buffer, marker: Buffer): Buffer {
  let at = data.indexOf(needle);
  if (at < 0) return data;
  const parts: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(data.subarray(from, at), marker);
    from = at + needle.length;
    at = data.indexOf(needle, from);
  }
  parts.push(data.subarray(from));
  return Buffer.concat(parts);
}

/**
 * Bytes with every secret replaced by its marker; `encodings` also looks for the encoded forms above.
 * Returns the same object when nothing was found (the common case costs one search per form).
 */
export function redactBytes(bytes: Uint8Array, secrets: readonly string[], encodings = false): { bytes: Uint8Array; found: string[] } {
  if (secrets.length === 0 || bytes.byteLength === 0) return { bytes, found: [] };
  let data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: string[] = [];
  for (const s of secrets) {
    // The marker (a SHA-256) is made only on a hit: the common case is one search per form.
    let marker: Buffer | null = null;
    for (const form of encodings ? encodedForms(s) : [s]) {
      if (!data.includes(form, 0, 'utf8')) continue;
      marker ??= Buffer.from(redactedMarker(s), 'utf8');
      data = replaceAll(data, Buffer.from(form, 'utf8'), marker);
    }
    if (marker !== null) found.push(s);
  }
  return found.length === 0 ? { bytes, found } : { bytes: new Uint8Array(data), found };
}
