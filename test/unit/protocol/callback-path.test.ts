import { describe, it, expect } from 'vitest';
import { inspectCallback, kindOfPath } from '../../../src-main/core/protocol/inspect';
import { callbackPrefixProblem, callbackRoute, DEFAULT_CALLBACK_PREFIX, prefixFinding } from '../../../src-main/core/protocol/callback-path';
import { VALID_PAY, json } from './helpers';

describe('kindOfPath', () => {
  it.each([
    ['/platform/pay', 'pay'],
    ['/platform/results', 'results'],
    ['/api/v2/platform/pay', 'pay'],
    ['/platform/pay?x=1&y=/platform/results', 'pay'],
    ['/platform/results#frag', 'results'],
    ['/platform/pay/', 'pay'],
    ['https://op.example/cb/platform/results?sig=1', 'results'],
    ['platform/pay', 'pay'],
    ['/xplatform/pay', 'other'],
    ['/platform/payx', 'other'],
    ['/platform/pay/extra', 'other'],
    ['/Platform/Pay', 'other'],
    ['/v0/wager/operator/create-token', 'other'],
    ['', 'other'],
  ])('%s -> %s', (path, kind) => {
    expect(kindOfPath(path)).toBe(kind);
  });
});

describe('inspectCallback', () => {
  it('inspects pay bodies on pay paths and results bodies on results paths', () => {
    expect(inspectCallback('/x/platform/pay?a=b', json(VALID_PAY))).toEqual([]);
    // The same pay body on the results path lacks result, roomId, gameId.
    const findings = inspectCallback('/platform/results', json(VALID_PAY));
    expect(findings.some((f) => f.path === '$.result' && f.level === 'error')).toBe(true);
  });

  it('returns nothing for other paths, even with a broken body', () => {
    expect(inspectCallback('/health', new Uint8Array([0xff]))).toEqual([]);
  });
});

describe('callbackRoute', () => {
  it.each([
    ['/acme/pay', '/acme', 'pay', true],
    ['/acme/results', '/acme', 'results', true],
    ['/acme/pay/', '/acme', 'pay', true],
    ['/acme/results?x=1#f', '/acme', 'results', true],
    ['/api/v2/acme/pay', '/api/v2/acme', 'pay', true],
    // The operator URL's own path may come before the prefix (https://op.example/api + /acme/pay).
    ['/api/acme/pay', '/acme', 'pay', true],
    ['https://op.example/acme/results', '/acme', 'results', true],
    // Any other prefix: still the callback its last segment names, but not at the profile's prefix.
    ['/platform/pay', '/acme', 'pay', false],
    ['/xacme/pay', '/acme', 'pay', false],
    ['/pay', '/acme', 'pay', false],
    ['/acme/payx', '/acme', 'other', false],
    ['/acme/pay/extra', '/acme', 'other', false],
    ['/acme/Pay', '/acme', 'other', false],
    ['/acme', '/acme', 'other', false],
    ['', '/acme', 'other', false],
  ])('%s under %s -> %s (at the prefix: %s)', (path, prefix, kind, atPrefix) => {
    expect(callbackRoute(path, prefix)).toEqual({ kind, atPrefix });
  });

  it('names the prefix the profile expects for a callback elsewhere, and nothing at the prefix', () => {
    expect(prefixFinding(callbackRoute('/acme/pay', '/acme'), '/acme')).toBeNull();
    expect(prefixFinding(callbackRoute('/health', '/acme'), '/acme')).toBeNull();
    const f = prefixFinding(callbackRoute('/platform/results', '/acme'), '/acme');
    expect(f).toMatchObject({ level: 'info', path: '$' });
    expect(f?.message).toContain('/acme/results');
  });
});

describe('callback prefixes', () => {
  it.each(['/platform', '/acme', '/api/v2/acme', '/a-b_c.d~e', '/%7Eops'])('accepts %s', (prefix) => {
    expect(callbackPrefixProblem(prefix)).toBeNull();
  });

  it.each([
    ['', 'path'],
    ['acme', 'start with a slash'],
    ['/acme/', 'not end with a slash'],
    ['/', 'not end with a slash'],
    ['/acme?x=1', 'query'],
    ['/acme#top', 'query or a fragment'],
    ['//acme', 'path segments'],
    ['/ac me', 'path segments'],
  ])('refuses %j', (prefix, why) => {
    expect(callbackPrefixProblem(prefix)).toContain(why);
  });

  it('defaults to the spec spelling', () => {
    expect(DEFAULT_CALLBACK_PREFIX).toBe('/platform');
  });
});
