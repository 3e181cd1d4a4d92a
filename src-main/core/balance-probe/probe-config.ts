// What a profile's balance probe may hold, checked when it is saved so a check never meets a probe it
// cannot send: an http(s) URL and a JSONPath that may each hold {userId}, request headers whose values
// are credentials or templates (a header value with a line break would smuggle a second header), and
// the key the templates sign with.
import type { HeaderList } from '../../shared/model';
import { DeskFailure } from '../result';
import { checkHeaderTemplate } from './probe-headers';
import { maskedBalanceUrl } from './probe-secrets';
import { checkProbePath, USER_PLACEHOLDER } from './probe-path';

export { USER_PLACEHOLDER };

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The URL for one user: `{userId}` URL-encoded wherever it appears. */
export function probeUrlFor(template: string, userId: string): string {
  return template.split(USER_PLACEHOLDER).join(encodeURIComponent(userId));
}

/** A probe URL as stored (trimmed), or null to clear; throws bad-input for anything a probe could not GET. */
export function checkProbeUrl(raw: string | null): string | null {
  if (raw === null || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(probeUrlFor(raw.trim(), 'user'));
  } catch {
    // Quoted masked: its query values may be credentials.
    throw new DeskFailure('bad-input', `The balance URL "${maskedBalanceUrl(raw)}" is not a URL; give one like http://127.0.0.1:4000/test/balance/{userId}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DeskFailure('bad-input', `The balance URL must be http or https, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') {
    throw new DeskFailure('bad-input', 'The balance URL must not carry credentials: give them as a header (--balance-header-env), where they are sealed.');
  }
  return raw.trim();
}

/** A JSONPath as stored, or null to clear; throws bad-input when it does not parse. */
export function checkBalancePath(what: string, raw: string | null): string | null {
  if (raw === null || raw.trim() === '') return null;
  try {
    checkProbePath(raw.trim());
  } catch (err) {
    throw new DeskFailure('bad-input', `${what}: ${(err as Error).message}.`);
  }
  return raw.trim();
}

/** The probe's headers as stored, or null to clear; throws bad-input for a name or value HTTP refuses. */
export function checkProbeHeaders(headers: ReadonlyArray<readonly [string, string]> | null): HeaderList | null {
  if (headers === null || headers.length === 0) return null;
  return headers.map(([name, value]) => {
    if (typeof name !== 'string' || !HEADER_NAME.test(name)) throw new DeskFailure('bad-input', `"${String(name)}" is not an HTTP header name.`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) throw new DeskFailure('bad-input', `The value of the balance header ${name} must be one line.`);
    try {
      checkHeaderTemplate(value);
    } catch (err) {
      throw new DeskFailure('bad-input', `The value of the balance header ${name}: ${(err as Error).message}.`);
    }
    return [name, value.trim()] as [string, string];
  });
}

/** The probe's signing key as stored, or null to clear; throws bad-input for one that cannot be stored (never quoting it). */
export function checkProbeHmacKey(key: string | null): string | null {
  if (key === null || key === '') return null;
  if (typeof key !== 'string' || /[\r\n\0]/.test(key)) throw new DeskFailure('bad-input', 'The balance signing key must be one line of text.');
  return key;
}

/** "Name: value" (the CLI's --balance-header) as a pair; throws bad-input without the colon. */
export function parseHeaderLine(line: string): [string, string] {
  const colon = line.indexOf(':');
  // The line holds a credential: the refusal never quotes it.
  if (colon <= 0) throw new DeskFailure('bad-input', 'A balance header is written "Name: value", with a colon after the name.');
  return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
}
