import { describe, expect, it } from 'vitest';
import { checkSignature, diagnose, sign } from '../../../src-main/core/signing';
import { DIAGNOSIS_CUT, MAX_RESERIALIZED_BYTES, RESERIALIZATION_BUDGET_BYTES } from '../../../src-main/core/signing/diagnose';
import { BODY_VARIANTS } from '../../../src-main/core/signing/variants';

const reserializationLabels = new Set(BODY_VARIANTS.filter((v) => v.reserializes).map((v) => v.label));
const reserializationsTried = (tried: string[]): number => tried.filter((t) => reserializationLabels.has(t)).length;

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

  it('a 250 KB JSON array with a wrong signature is not re-serialized at all (over the size bound), and says so', () => {
    const body = Buffer.from(JSON.stringify(Array.from({ length: 25_000 }, (_, i) => ({ i, v: 'abcdef' }))).slice(0, 250_000));
    const array = Buffer.from(JSON.stringify(Array.from({ length: 12_000 }, (_, i) => ({ i, v: 'abcdefgh' }))));
    expect(array.length).toBeGreaterThan(200_000);
    for (const b of [body, array]) {
      const d = diagnose(b, 'a'.repeat(64), [primary]);
      expect(reserializationsTried(d.tried)).toBe(0);
      expect(d.tried).toContain(`no re-serializations (the body is over ${MAX_RESERIALIZED_BYTES / 1024} KiB)`);
    }
  });

  it('a body under the size bound is re-serialized only until the byte budget is spent; the cut is reported', () => {
    const array = Buffer.from(JSON.stringify(Array.from({ length: 1_800 }, (_, i) => ({ i, v: 'abcdefghijklmnop' }))));
    expect(array.length).toBeLessThan(MAX_RESERIALIZED_BYTES);
    expect(array.length * reserializationLabels.size).toBeGreaterThan(2 * RESERIALIZATION_BUDGET_BYTES);
    const d = diagnose(array, 'a'.repeat(64), [primary]);
    // Each re-serialization produces at least about the body's size (compact output is the smallest).
    expect(reserializationsTried(d.tried)).toBeLessThanOrEqual(Math.ceil(RESERIALIZATION_BUDGET_BYTES / (array.length * 0.9)) + 1);
    expect(reserializationsTried(d.tried)).toBeLessThan(reserializationLabels.size);
    expect(d.tried.some((t) => t.startsWith(DIAGNOSIS_CUT))).toBe(true);
  });
});
