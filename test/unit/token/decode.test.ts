import { describe, expect, it } from 'vitest';
import { decodeToken, UNVERIFIED_NOTE } from '../../../src-main/core/token/decode';

const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const nowS = NOW / 1000;

describe('decodeToken', () => {
  it('reads the header and payload, with exp, iat and nbf as dates and the time left', () => {
    const token = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'u', iat: nowS - 60, nbf: nowS - 60, exp: nowS + 90 })}.c2ln`;
    const d = decodeToken(token, NOW);
    expect(d.error).toBeNull();
    expect(d.header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(d.payload).toMatchObject({ sub: 'u' });
    expect(d.dates).toEqual({ exp: '2025-01-01T12:01:30.000Z', iat: '2025-01-01T11:59:00.000Z', nbf: '2025-01-01T11:59:00.000Z' });
    expect(d.secondsLeft).toBe(90);
    expect(d.note).toBe(UNVERIFIED_NOTE);
  });

  it('counts down past expiry, and leaves out claims that are not numbers', () => {
    const d = decodeToken(`${part({ alg: 'none' })}.${part({ exp: nowS - 5, iat: 'yesterday' })}.`, NOW);
    expect(d.secondsLeft).toBe(-5);
    expect(d.dates).toEqual({ exp: '2025-01-01T11:59:55.000Z' });
    expect(decodeToken(`${part({})}.${part({ sub: 'x' })}.s`, NOW).secondsLeft).toBeNull();
  });

  it('explains a token that is not JWT-like', () => {
    expect(decodeToken('opaque-token', NOW).error).toBe('The token is not JWT-like: expected three base64url parts separated by dots, found 1.');
    expect(decodeToken('a.b.c.d.e', NOW).error).toMatch(/encrypted JWT \(JWE\)/);
    expect(decodeToken(`${part([1])}.${Buffer.from('not json').toString('base64url')}.s`, NOW).error).toBe(
      'The token does not decode: the header is not a JSON object; the payload is not JSON once decoded.',
    );
    const half = decodeToken(`${part({ alg: 'HS256' })}.!!.s`, NOW);
    expect(half.header).toEqual({ alg: 'HS256' });
    expect(half.payload).toBeNull();
    expect(half.error).toContain('the payload is not base64url');
  });
});
