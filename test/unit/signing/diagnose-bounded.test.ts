import { describe, expect, it } from 'vitest';
import { checkSignature, diagnose, sign } from '../../../src-main/core/signing';

const SECRET = 'shared-secret';
const primary = { profile: 'dev', secret: SECRET, primary: true };
const deep = (levels: number): Buffer => Buffer.from(`{"userId":"u1","a":${'['.repeat(levels)}${']'.repeat(levels)}}`);

describe('diagnose on hostile bodies', () => {
  it('a body nested 5,000 deep with a wrong signature is diagnosed without re-serializing it', () => {
    const body = deep(5_000);
    const d = diagnose(body, 'a'.repeat(64), [primary, { profile: 'other', secret: 'other-secret' }]);
    expect(d.match).toBeNull();
    expect(d.tried).toContain('no re-serializations (the body is nested deeper than 64 levels)');
    expect(checkSignature(body, 'b'.repeat(64), [primary]).verdict).toBe('mismatch');
  });

  it('still finds byte-level variants of a deep body (a trailing newline)', () => {
    const body = deep(5_000);
    const d = diagnose(body, sign(Buffer.concat([body, Buffer.from('\n')]), SECRET), [primary]);
    expect(d.match?.variant).toBe('trailing-newline-added');
  });

  it('re-serializes a body nested up to the limit', () => {
    const body = Buffer.from(`{"a":${'['.repeat(63)}1${']'.repeat(63)},"b":2}`);
    const compact = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 2));
    expect(diagnose(body, sign(compact, SECRET), [primary]).match?.variant).toBe('pretty-2');
  });
});
