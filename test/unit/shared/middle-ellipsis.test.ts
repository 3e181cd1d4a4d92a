import { describe, expect, it } from 'vitest';
import { middleEllipsis } from '../../../src-main/shared/middle-ellipsis';

describe('middleEllipsis', () => {
  it('keeps a text that fits, and otherwise both ends in exactly the room given', () => {
    expect(middleEllipsis('dep-1', 10)).toBe('dep-1');
    const id = 'wd-check-20260101T000000-refund-unknown-deposit';
    const cut = middleEllipsis(id, 20);
    expect([...cut]).toHaveLength(20);
    // The end, where the desk's ids tell checks apart, gets the larger share.
    expect(cut).toBe('wd-che…known-deposit');
    expect(middleEllipsis(id, 1)).toBe('…');
  });
});
