// A read stopped by its budget says after how long, to a tenth of a second, and never "0 s": a timer
// may fire a fraction of a millisecond before its time.
import { describe, expect, it } from 'vitest';
import { ReadStopped } from '../../../src-main/core/store/sqlite/read-plan';

describe('ReadStopped', () => {
  it('rounds to a tenth of a second, never down to 0', () => {
    expect(new ReadStopped(49.7).afterSeconds).toBe(0.1);
    expect(new ReadStopped(1_260).afterSeconds).toBe(1.3);
    expect(new ReadStopped(49.7).message).toContain('after 0.1 s');
  });
});
