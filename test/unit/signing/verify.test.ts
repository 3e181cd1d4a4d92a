import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSignature, sign, verify, invalidSignatureFor } from '../../../src-main/core/signing';

const secretArb = fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme' });

describe('verify', () => {
  it('sign-then-verify is valid for any bytes and secret', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), secretArb, (body, secret) => {
        expect(verify(body, sign(body, secret), secret).verdict).toBe('valid');
      }),
    );
  });

  it('flipping any bit of the body gives mismatch', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 512 }), secretArb, fc.nat(), fc.integer({ min: 0, max: 7 }), (body, secret, at, bit) => {
        const signature = sign(body, secret);
        const changed = Uint8Array.from(body);
        const i = at % changed.length;
        changed[i] = changed[i]! ^ (1 << bit);
        expect(verify(changed, signature, secret).verdict).toBe('mismatch');
      }),
    );
  });

  it('flipping any bit of the signature gives mismatch (or malformed when it stops being hex)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), secretArb, fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 3 }), (body, secret, at, bit) => {
        const signature = sign(body, secret);
        const digit = (parseInt(signature[at]!, 16) ^ (1 << bit)).toString(16);
        const changed = signature.slice(0, at) + digit + signature.slice(at + 1);
        expect(verify(body, changed, secret).verdict).toBe('mismatch');
      }),
    );
  });

  it('arbitrary header strings give malformed or missing (or mismatch for 64 hex), never an exception', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ minLength: 10_000, maxLength: 20_000 }), fc.constant('')), (header) => {
        const { verdict } = verify(Buffer.from('{}'), header, 'k');
        if (header === '') expect(verdict).toBe('missing');
        else if (/^\s*[0-9a-fA-F]{64}\s*$/.test(header)) expect(['mismatch', 'valid']).toContain(verdict);
        else expect(verdict).toBe('malformed');
      }),
    );
  });

  it.each([
    ['odd length', 'abc'],
    ['63 hex characters', 'a'.repeat(63)],
    ['65 hex characters', 'a'.repeat(65)],
    ['non-hex', 'g'.repeat(64)],
    ['base64 instead of hex', Buffer.alloc(32, 7).toString('base64')],
    ['huge', 'f'.repeat(1_000_000)],
  ])('%s is malformed', (_name, header) => {
    const result = verify(Buffer.from('{}'), header, 'k');
    expect(result.verdict).toBe('malformed');
    expect(result.notes.join(' ')).toMatch(/64 hexadecimal/);
    expect(result.notes.join(' ').length).toBeLessThan(300);
  });

  it('no header is missing; null and undefined too', () => {
    expect(verify(Buffer.from('{}'), undefined, 'k').verdict).toBe('missing');
    expect(verify(Buffer.from('{}'), null, 'k').verdict).toBe('missing');
  });

  it('no secret is no-secret, once the header is well formed', () => {
    expect(verify(Buffer.from('{}'), 'a'.repeat(64), null).verdict).toBe('no-secret');
    expect(verify(Buffer.from('{}'), 'a'.repeat(64), '').verdict).toBe('no-secret');
  });

  it('uppercase hex that matches only when case is ignored is a mismatch, as for a receiver that compares hex strings', () => {
    const body = Buffer.from('{"a":1}');
    for (const header of [sign(body, 'k').toUpperCase(), `${sign(body, 'k').slice(0, 10).toUpperCase()}${sign(body, 'k').slice(10)}`]) {
      const result = verify(body, header, 'k');
      expect(result.verdict).toBe('mismatch');
      expect(result.notes.join(' ')).toContain('the right HMAC, written in uppercase hex; receivers that compare hex strings reject it');
    }
    const report = checkSignature(body, sign(body, 'k').toUpperCase(), [{ profile: 'p', secret: 'k', primary: true }]);
    expect(report.verdict).toBe('mismatch');
    expect(report.diagnosis).toMatchObject({
      summary: 'the right HMAC, written in uppercase hex; receivers that compare hex strings reject it',
      match: { variant: 'uppercase-hex' },
    });
    // Uppercase hex of another body is an ordinary mismatch, diagnosed as usual.
    expect(
      checkSignature(body, sign(Buffer.from('{"a":2}'), 'k').toUpperCase(), [{ profile: 'p', secret: 'k', primary: true }]).diagnosis?.match?.variant,
    ).not.toBe('uppercase-hex');
  });

  it('invalidSignatureFor is well formed and never matches', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), secretArb, (body, secret) => {
        const bad = invalidSignatureFor(body, secret);
        expect(bad).toMatch(/^[0-9a-f]{64}$/);
        expect(verify(body, bad, secret).verdict).toBe('mismatch');
      }),
    );
  });
});
