import { describe, expect, it } from 'vitest';
import { sign, verify } from '../../../src-main/core/signing';
import { bodyOf, VECTORS } from '../../helpers/vectors';

describe('signing against the openssl vectors', () => {
  it('has the vectors the suite relies on', () => {
    expect(VECTORS.map((v) => v.name)).toEqual(
      expect.arrayContaining(['pretty-printed', 'non-canonical-number', 'utf8-raw', 'utf8-escaped', 'invalid-utf8-bytes', 'empty-body']),
    );
  });

  for (const v of VECTORS) {
    it(`${v.name}: sign() gives openssl's digest and verify() says valid`, () => {
      const body = bodyOf(v);
      expect(sign(body, v.secret)).toBe(v.signature);
      expect(verify(body, v.signature, v.secret)).toEqual({ verdict: 'valid', notes: [] });
    });
  }

  it('re-serializing the pretty-printed and non-canonical bodies would change the bytes (why raw bytes matter)', () => {
    for (const name of ['pretty-printed', 'non-canonical-number']) {
      const v = VECTORS.find((x) => x.name === name)!;
      const body = bodyOf(v);
      const reserialized = Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8'))));
      expect(reserialized.equals(body)).toBe(false);
      expect(verify(reserialized, v.signature, v.secret).verdict).toBe('mismatch');
    }
  });

  it('decoding invalid UTF-8 to a string first gives the wrong HMAC', () => {
    const v = VECTORS.find((x) => x.name === 'invalid-utf8-bytes')!;
    const decodedThenEncoded = Buffer.from(bodyOf(v).toString('utf8'), 'utf8');
    expect(sign(decodedThenEncoded, v.secret)).not.toBe(v.signature);
  });
});
