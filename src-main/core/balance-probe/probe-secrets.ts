// Every form in which a balance probe's credentials can appear on their own. A probe's header value is
// sealed whole ("Bearer abc", "Basic dXNlcjpwdw=="), but a sender, an echoing server or a log line may
// carry a part of it: the token without its scheme, Basic's user and password and their base64. Each is
// a secret of its own, redacted everywhere like the signing secret (core/redact finds each one's encoded
// forms). The balance URL's query values are credentials too when they look like one (?key=...).
import type { HeaderList } from '../../shared/model';
import { USER_PLACEHOLDER } from './probe-path';

/** "<scheme> <credentials>", as RFC 9110 writes an Authorization value. */
const SCHEME_AND_CREDENTIALS = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) +(\S(?:.*\S)?)$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A query parameter whose name says it carries a credential, whatever the length of its value. */
const CREDENTIAL_NAME = /key|token|secret|pass|pwd|auth|sig|session|credential|access/i;
/**
 * A query value this long is taken for a credential whatever its name. Shorter values with other names
 * (format=json, currency=EUR) are left alone: redacting them would blot out the same word in every
 * captured body and header.
 */
const LONG_QUERY_VALUE = 12;

/** The forms of one header value: the value, the credentials without a scheme, Basic's user, password and user:password. */
function headerValueForms(value: string): string[] {
  const forms = [value];
  const m = SCHEME_AND_CREDENTIALS.exec(value);
  if (m === null) return forms;
  const [, scheme, credentials] = m as unknown as [string, string, string];
  forms.push(credentials);
  if (scheme.toLowerCase() === 'basic' && BASE64.test(credentials)) {
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0) forms.push(decoded, decoded.slice(0, colon), decoded.slice(colon + 1));
  }
  return forms;
}

/** The query values of a balance URL (template) that are credentials: named like one, or long. */
export function balanceUrlSecrets(url: string | null): string[] {
  if (url === null) return [];
  const q = url.indexOf('?');
  if (q < 0) return [];
  const query = url.slice(q + 1).split('#')[0]!;
  const found: string[] = [];
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    if (raw === '' || raw.includes(USER_PLACEHOLDER)) continue;
    if (!CREDENTIAL_NAME.test(name) && raw.length < LONG_QUERY_VALUE) continue;
    found.push(raw);
    try {
      const decoded = decodeURIComponent(raw.replaceAll('+', ' '));
      if (decoded !== raw) found.push(decoded);
    } catch {
      // Not valid percent-encoding: the raw form is the one anything could quote.
    }
  }
  return found;
}

/** Every secret of a probe: each header value in all its forms, and the URL's credential-like query values. */
export function probeSecrets(headers: HeaderList | null, url: string | null): string[] {
  const forms = (headers ?? []).flatMap(([, value]) => (value.length > 0 ? headerValueForms(value) : []));
  return [...forms, ...balanceUrlSecrets(url)];
}

/** What a masked query value reads as. */
export const MASKED_QUERY_VALUE = '***';

/** The balance URL fit to print: every query value masked (its parameter names kept, {userId} kept). */
export function maskedBalanceUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = hash < 0 ? url.slice(q + 1) : url.slice(q + 1, hash);
  const masked = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const value = pair.slice(eq + 1);
      return value === '' || value === USER_PLACEHOLDER ? pair : `${pair.slice(0, eq)}=${MASKED_QUERY_VALUE}`;
    })
    .join('&');
  return `${url.slice(0, q)}?${masked}${hash < 0 ? '' : url.slice(hash)}`;
}
