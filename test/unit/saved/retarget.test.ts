import { describe, expect, it } from 'vitest';
import { isUnderPrefix, retargetPath } from '../../../src-main/core/saved/retarget';

const KNOWN = ['/platform', '/acme', '/api/v2/bolt'];

describe("a saved request's path, moved to the target profile's prefix", () => {
  it('replaces the prefix the file names, keeping the rest of the path and its query', () => {
    expect(retargetPath('/acme/results?x=1', '/acme', KNOWN, '/lose')).toEqual({
      from: '/acme/results?x=1',
      to: '/lose/results?x=1',
      outcome: 'retargeted',
      prefix: '/acme',
    });
    // The file's word wins over a longer known prefix the path also starts with.
    expect(retargetPath('/api/v2/bolt/pay', '/api', KNOWN, '/lose').to).toBe('/lose/v2/bolt/pay');
  });

  it('without the file saying (or the path not under what it says), takes the longest known prefix at a segment boundary', () => {
    expect(retargetPath('/api/v2/bolt/pay', null, ['/api', ...KNOWN], '/lose')).toMatchObject({ to: '/lose/pay', prefix: '/api/v2/bolt' });
    expect(retargetPath('/platform/pay', '/acme', KNOWN, '/lose')).toMatchObject({ to: '/lose/pay', outcome: 'retargeted', prefix: '/platform' });
    // /acme-old is not under /acme.
    expect(retargetPath('/acme-old/pay', null, KNOWN, '/lose')).toEqual({ from: '/acme-old/pay', to: '/acme-old/pay', outcome: 'kept', prefix: null });
  });

  it('leaves a path already under the target prefix as it is', () => {
    expect(retargetPath('/lose/pay', '/acme', [...KNOWN, '/lose'], '/lose')).toMatchObject({ to: '/lose/pay', outcome: 'unchanged', prefix: '/lose' });
    expect(retargetPath('/acme/pay', '/acme', KNOWN, '/acme')).toMatchObject({ to: '/acme/pay', outcome: 'unchanged' });
  });

  it('reads a prefix as whole segments', () => {
    expect([
      isUnderPrefix('/acme', '/acme'),
      isUnderPrefix('/acme/pay', '/acme'),
      isUnderPrefix('/acme?x', '/acme'),
      isUnderPrefix('/acmepay', '/acme'),
    ]).toEqual([true, true, true, false]);
  });
});
