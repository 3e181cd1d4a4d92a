// Probe header values for balance endpoints that sign their reads: a value may hold {userId} and
// {hmac-sha256-hex:TEMPLATE} or {hmac-sha256-base64:TEMPLATE}, the HMAC-SHA256 of TEMPLATE (itself
// holding {userId}) under the probe's signing key. The key is sealed with the header values, kept
// in their list under a name no HTTP header can have, and never sent, shown or printed.
import { createHmac } from 'node:crypto';
import type { HeaderList } from '../../shared/model';
import { USER_PLACEHOLDER } from './probe-path';

/** The entry of the sealed header list that holds the signing key: braces make it no header name. */
export const HMAC_KEY_ENTRY = '{hmac-key}';

const SIGNED = /\{hmac-sha256-(hex|base64):/g;

type Part = { text: string } | { user: true } | { hmac: 'hex' | 'base64'; template: string };

/** A header value's parts; throws an Error (without the value: it may be a credential) when a signed part is not closed. */
function partsOf(value: string): Part[] {
  const parts: Part[] = [];
  const literal = (text: string) => {
    const pieces = text.split(USER_PLACEHOLDER);
    pieces.forEach((p, i) => {
      if (p !== '') parts.push({ text: p });
      if (i < pieces.length - 1) parts.push({ user: true });
    });
  };
  let last = 0;
  for (const m of value.matchAll(SIGNED)) {
    if (m.index < last) continue;
    literal(value.slice(last, m.index));
    // The template runs to the brace that closes this one: {userId} inside it opens and closes its own.
    let depth = 1;
    let end = m.index + m[0].length;
    for (; end < value.length && depth > 0; end++) {
      if (value[end] === '{') depth++;
      else if (value[end] === '}') depth--;
    }
    if (depth !== 0) throw new Error(`{hmac-sha256-${m[1]}:...} is not closed with "}"`);
    const template = value.slice(m.index + m[0].length, end - 1);
    if (/[{}]/.test(template.split(USER_PLACEHOLDER).join(''))) throw new Error(`inside {hmac-sha256-${m[1]}:...} only {userId} may be in braces`);
    parts.push({ hmac: m[1] as 'hex' | 'base64', template });
    last = end;
  }
  literal(value.slice(last));
  return parts;
}

/** Whether a header value signs (needs the key). Throws like partsOf. */
export function signsWithKey(value: string): boolean {
  return partsOf(value).some((p) => 'hmac' in p);
}

/** Throws an Error saying what is wrong with a header value's template (never quoting the value). */
export function checkHeaderTemplate(value: string): void {
  partsOf(value);
}

export type RenderedHeaders = { ok: true; headers: HeaderList } | { ok: false; reason: string };

/** The headers to send for one user, the key's entry left out; or why they cannot be sent. */
export function renderProbeHeaders(stored: HeaderList, userId: string, profile: string | null): RenderedHeaders {
  const key = stored.find(([name]) => name === HMAC_KEY_ENTRY)?.[1] ?? null;
  // A header carries Latin-1 text on one line: an id outside it would be refused by HTTP, or split the header.
  const userFits = /^[\u0020-\u007e\u00a0-\u00ff]*$/.test(userId);
  const headers: HeaderList = [];
  for (const [name, value] of stored) {
    if (name === HMAC_KEY_ENTRY) continue;
    let parts: Part[];
    try {
      parts = partsOf(value);
    } catch (err) {
      return { ok: false, reason: `the balance header ${name} is not a valid template: ${(err as Error).message}` };
    }
    if (parts.some((p) => 'user' in p) && !userFits) {
      return { ok: false, reason: `the balance header ${name} holds {userId}, and user ${JSON.stringify(userId)} cannot be written in a header` };
    }
    if (parts.some((p) => 'hmac' in p) && key === null) {
      return {
        ok: false,
        reason: `the balance header ${name} is signed, and no signing key is set: profile set ${profile ?? 'NAME'} --balance-hmac-key-env VAR`,
      };
    }
    const rendered = parts
      .map((p) => {
        if ('text' in p) return p.text;
        if ('user' in p) return userId;
        const signed = p.template.split(USER_PLACEHOLDER).join(userId);
        return createHmac('sha256', key!).update(signed, 'utf8').digest(p.hmac);
      })
      .join('');
    headers.push([name, rendered]);
  }
  return { ok: true, headers };
}
