import { describe, it, expect } from 'vitest';
import { inspectCallback, kindOfPath } from '../../../src-main/core/protocol/inspect';
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
