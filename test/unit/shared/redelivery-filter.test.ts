import { describe, expect, it } from 'vitest';
import { parseIdRanges, resolveTime } from '../../../src-main/shared/redelivery-filter';

describe('redelivery filter spellings', () => {
  it('reads id lists and ranges, and refuses what is not one', () => {
    expect(parseIdRanges('12,15-20, 7')).toEqual([
      [12, 12],
      [15, 20],
      [7, 7],
    ]);
    for (const bad of ['', 'a', '5-2', '0', '1-', '-3', '1.5']) expect(() => parseIdRanges(bad), bad).toThrow();
  });

  it('reads relative times back from now, and ISO times as UTC', () => {
    const now = new Date('2026-11-24T12:00:00.000Z');
    expect(resolveTime('2h', now)).toBe('2026-11-24T10:00:00.000Z');
    expect(resolveTime('30m', now)).toBe('2026-11-24T11:30:00.000Z');
    expect(resolveTime('45s', now)).toBe('2026-11-24T11:59:15.000Z');
    expect(resolveTime('1d', now)).toBe('2026-11-23T12:00:00.000Z');
    expect(resolveTime('2026-11-20', now)).toBe('2026-11-20T00:00:00.000Z');
    expect(resolveTime('2026-11-20T08:30', now)).toBe('2026-11-20T08:30:00.000Z');
    expect(resolveTime('2026-11-20T08:30:00+02:00', now)).toBe('2026-11-20T06:30:00.000Z');
    for (const bad of ['yesterday', '2 weeks', '12', '2026-13-45']) expect(() => resolveTime(bad, now), bad).toThrow();
  });
});
