// Reads a JWT-like token: its header and payload are base64url JSON, its claims exp/iat/nbf are
// seconds since 1970. The third part is the platform's signature, which the desk cannot check (it
// does not hold the platform's key): the result says so, and never calls a token valid.
import type { DecodedToken } from '../../shared/model';

export const UNVERIFIED_NOTE =
  "Decoded, not verified: the desk does not hold the platform's signing key, so it cannot check the token's signature. Treat these claims as unchecked.";

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** Dates beyond this are not dates a token means (JavaScript's Date range is ±8.64e15 ms). */
const MAX_SECONDS = 8.64e12;

type Part = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

function decodePart(text: string, name: 'header' | 'payload'): Part {
  if (text === '') return { ok: false, error: `the ${name} is empty` };
  if (!BASE64URL.test(text) || text.replace(/=+$/, '').length % 4 === 1) return { ok: false, error: `the ${name} is not base64url` };
  let json: string;
  try {
    json = strictUtf8.decode(Buffer.from(text, 'base64url'));
  } catch {
    return { ok: false, error: `the ${name} is not UTF-8 text once decoded` };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, error: `the ${name} is not JSON once decoded` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: `the ${name} is not a JSON object` };
  return { ok: true, value: value as Record<string, unknown> };
}

function claimDate(payload: Record<string, unknown> | null, claim: 'exp' | 'iat' | 'nbf'): string | undefined {
  const v = payload?.[claim];
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= MAX_SECONDS ? new Date(v * 1000).toISOString() : undefined;
}

export function decodeToken(token: string, nowMs: number = Date.now()): DecodedToken {
  const parts = token.trim().split('.');
  const base = { note: UNVERIFIED_NOTE, dates: {}, secondsLeft: null };
  if (parts.length === 5) {
    return { ...base, header: null, payload: null, error: 'The token has five parts: an encrypted JWT (JWE), whose claims cannot be read without the key.' };
  }
  if (parts.length !== 3) {
    return {
      ...base,
      header: null,
      payload: null,
      error: `The token is not JWT-like: expected three base64url parts separated by dots, found ${parts.length}.`,
    };
  }
  const header = decodePart(parts[0]!, 'header');
  const payload = decodePart(parts[1]!, 'payload');
  const errors = [header, payload].filter((p): p is { ok: false; error: string } => !p.ok).map((p) => p.error);
  const claims = payload.ok ? payload.value : null;
  const dates: DecodedToken['dates'] = {};
  for (const claim of ['exp', 'iat', 'nbf'] as const) {
    const date = claimDate(claims, claim);
    if (date) dates[claim] = date;
  }
  const exp = claims?.exp;
  return {
    header: header.ok ? header.value : null,
    payload: claims,
    dates,
    secondsLeft: dates.exp !== undefined && typeof exp === 'number' ? Math.floor(exp - nowMs / 1000) : null,
    note: UNVERIFIED_NOTE,
    error: errors.length > 0 ? `The token does not decode: ${errors.join('; ')}.` : null,
  };
}
