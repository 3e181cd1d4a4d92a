import { describe, expect, it } from 'vitest';
import { applyEdits, decodeBase64, parseSetArgument } from '../../../src-main/core/outbound/edit';
import { withContentLength, withHeader, withoutHeaders } from '../../../src-main/core/outbound/headers';
import { resultsPathFor } from '../../../src-main/core/outbound/drafts';
import { joinUrl } from '../../../src-main/core/outbound/target';
import { signatureHeaderFor } from '../../../src-main/core/outbound/signature-mode';
import { invalidSignatureFor, sign } from '../../../src-main/core/signing';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('body edits', () => {
  it('returns the bytes untouched when there is nothing to edit', () => {
    const raw = bytes('{ "amount": 10.50 }');
    expect(applyEdits(raw, {})).toBe(raw);
  });

  it('sets and removes by path, then re-serializes compactly', () => {
    const out = applyEdits(bytes('{ "amount": 10.50, "meta": {"a": 1}, "currency": "USD" }'), {
      set: [
        { path: 'meta.b', value: [1] },
        { path: 'amount', value: 3 },
      ],
      unset: ['currency'],
    });
    expect(text(out)).toBe('{"amount":3,"meta":{"a":1,"b":[1]}}');
  });

  it('replaces the body with raw bytes before any field edit', () => {
    const out = applyEdits(bytes('{}'), { bodyBase64: Buffer.from('{"x":1}').toString('base64'), set: [{ path: 'y', value: 'z' }] });
    expect(text(out)).toBe('{"x":1,"y":"z"}');
  });

  it('says why an edit is impossible', () => {
    expect(() => applyEdits(bytes('not json'), { set: [{ path: 'a', value: 1 }] })).toThrow(/not UTF-8 JSON/);
    expect(() => applyEdits(bytes('{"a":1}'), { unset: ['b'] })).toThrow(/nothing to remove/);
    expect(() => decodeBase64('@@@', 'The body')).toThrow(/not valid base64/);
  });

  it('reads PATH=VALUE as JSON where it parses, else as text', () => {
    expect(parseSetArgument('amount=7.5')).toEqual({ path: 'amount', value: 7.5 });
    expect(parseSetArgument('currency=USD')).toEqual({ path: 'currency', value: 'USD' });
    expect(parseSetArgument('roomId=null')).toEqual({ path: 'roomId', value: null });
    expect(parseSetArgument('note=a=b')).toEqual({ path: 'note', value: 'a=b' });
    expect(() => parseSetArgument('=1')).toThrow(/PATH=VALUE/);
  });
});

describe('headers', () => {
  it('replaces a header where it stands and drops repeats', () => {
    expect(
      withHeader(
        [
          ['A', '1'],
          ['X-Server-Authorization', 'old'],
          ['B', '2'],
          ['x-server-authorization', 'dup'],
        ],
        'x-server-authorization',
        'new',
      ),
    ).toEqual([
      ['A', '1'],
      ['X-Server-Authorization', 'new'],
      ['B', '2'],
    ]);
    expect(withHeader([['A', '1']], 'b', '2')).toEqual([
      ['A', '1'],
      ['b', '2'],
    ]);
  });

  it('always states the true body length', () => {
    expect(
      withContentLength(
        [
          ['Content-Length', '99'],
          ['Transfer-Encoding', 'chunked'],
          ['A', '1'],
        ],
        3,
      ),
    ).toEqual([
      ['A', '1'],
      ['Content-Length', '3'],
    ]);
    expect(
      withoutHeaders(
        [
          ['Host', 'h'],
          ['host', 'i'],
          ['A', '1'],
        ],
        ['HOST'],
      ),
    ).toEqual([['A', '1']]);
  });
});

describe('targets and paths', () => {
  it('joins a base URL (with or without its own prefix) and a path', () => {
    expect(joinUrl('http://op.example:4000/', '/platform/pay')).toBe('http://op.example:4000/platform/pay');
    expect(joinUrl('https://op.example/api/v2', '/platform/results?x=1')).toBe('https://op.example/api/v2/platform/results?x=1');
  });

  it('keeps an operator prefix when turning a pay path into a results path', () => {
    expect(resultsPathFor('/api/platform/pay')).toBe('/api/platform/results');
    expect(resultsPathFor('/platform/pay/')).toBe('/platform/results/');
    expect(resultsPathFor('/odd')).toBe('/platform/results');
  });
});

describe('signature modes', () => {
  const body = bytes('{"a":"é 🎲"}');
  const profile = {
    name: 'p',
    operatorUrl: null,
    baseUrl: null,
    operatorId: null,
    upstream: null,
    production: false,
    allowSelfSigned: false,
    callbackPrefix: '/platform',
    amounts: 'integer' as const,
    currency: 'USD',
    secret: 's',
    previousSecret: null,
    apiKey: null,
  };

  it('computes each mode over the exact bytes', () => {
    expect(signatureHeaderFor(body, { mode: 'resign', profile, keptHeader: 'k' })).toBe(sign(body, 's'));
    expect(signatureHeaderFor(body, { mode: 'resign', profile, customSecret: 'c', keptHeader: null })).toBe(sign(body, 'c'));
    expect(signatureHeaderFor(body, { mode: 'keep', profile, keptHeader: 'k' })).toBe('k');
    expect(signatureHeaderFor(body, { mode: 'none', profile, keptHeader: 'k' })).toBeNull();
    expect(signatureHeaderFor(body, { mode: 'invalid', profile, keptHeader: null })).toBe(invalidSignatureFor(body, 's'));
    expect(signatureHeaderFor(body, { mode: 'invalid', profile: null, keptHeader: null })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('needs a secret to re-sign', () => {
    expect(() => signatureHeaderFor(body, { mode: 'resign', profile: { ...profile, secret: null }, keptHeader: null })).toThrow(/No signing secret/);
  });
});
