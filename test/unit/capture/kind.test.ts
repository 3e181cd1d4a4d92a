// One place decides a request's kind by its path, for every way in: the two callbacks under any
// mount, the token request, and everything else.
import { describe, expect, it } from 'vitest';
import { routeOf } from '../../../src-main/core/capture';

describe('routeOf', () => {
  it.each([
    ['/platform/pay', 'pay'],
    ['/api/v2/platform/results/', 'results'],
    ['/v0/wager/operator/create-token', 'token'],
    ['/base/v0/wager/operator/create-token/', 'token'],
    ['/create-token-not', 'other'],
    ['/health', 'other'],
  ])('%s is %s', (path, kind) => {
    expect(routeOf(path, '/platform').kind).toBe(kind);
  });
});
