import { describe, expect, it } from 'vitest';
import { pathOutsidePrefix } from '../../../src-renderer/components/callback-prefix';

describe('pathOutsidePrefix', () => {
  it('is null for a callback at the prefix (a trailing slash, a query or an operator path in front allowed)', () => {
    expect(pathOutsidePrefix({ kind: 'pay', path: '/acme/pay' }, '/acme')).toBeNull();
    expect(pathOutsidePrefix({ kind: 'results', path: '/acme/results/' }, '/acme')).toBeNull();
    expect(pathOutsidePrefix({ kind: 'pay', path: '/acme/pay?x=1' }, '/acme')).toBeNull();
    expect(pathOutsidePrefix({ kind: 'pay', path: '/api/acme/pay' }, '/acme')).toBeNull();
  });

  it('is the path for a callback under another prefix, and null for what is no callback', () => {
    expect(pathOutsidePrefix({ kind: 'pay', path: '/platform/pay' }, '/acme')).toBe('/platform/pay');
    expect(pathOutsidePrefix({ kind: 'results', path: '/xacme/results' }, '/acme')).toBe('/xacme/results');
    expect(pathOutsidePrefix({ kind: 'other', path: '/whatever' }, '/acme')).toBeNull();
    expect(pathOutsidePrefix({ kind: 'token', path: '/v0/create-token' }, '/acme')).toBeNull();
  });
});
