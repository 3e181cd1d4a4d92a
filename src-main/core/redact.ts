// Secrets never leave the desk in an export: not the API key, not a signing secret. The token client
// already stores x-api-key as a fingerprint; this is the second line of defence for everything that
// writes headers out (HAR, tickets) or in (HAR import): any header value that holds a stored secret,
// and any x-api-key value at all, becomes "[redacted sha256:<fingerprint>]".
import type { HeaderList } from '../shared/model';
import type { StoreAndSecrets as DeskContext } from './secrets';
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

/** Every secret the desk holds in clear on the main side: signing secrets and API keys of all profiles. */
export function storedSecrets(ctx: DeskContext): string[] {
  const found = new Set<string>();
  for (const c of ctx.signingCandidates()) found.add(c.secret);
  for (const apiKey of ctx.store.profiles.allApiKeys()) found.add(apiKey);
  return [...found].filter((s) => s.length >= MIN_REDACTED_SECRET);
}

/** One header value with any secret replaced by its marker. */
function redactValue(name: string, value: string, secrets: readonly string[]): string {
  if (isRedacted(value)) return value;
  if (name.toLowerCase() === API_KEY_HEADER) return redactedMarker(value);
  const held = secrets.find((s) => value.includes(s));
  return held === undefined ? value : redactedMarker(held);
}

export function redactHeaders(headers: HeaderList, secrets: readonly string[]): HeaderList {
  return headers.map(([n, v]) => [n, redactValue(n, v, secrets)]);
}
