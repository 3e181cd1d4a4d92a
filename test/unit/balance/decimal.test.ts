import { describe, expect, it } from 'vitest';
import { decimalDelta, decimalOf, parseDecimal, printDecimal } from '../../../src-main/core/balance/decimal';

describe('exact decimals', () => {
  it('subtracts decimals exactly, whatever their scale', () => {
    expect(decimalDelta('1000', '998.5')).toBe('-1.5');
    expect(decimalDelta('0.1', '0.3')).toBe('0.2');
    expect(decimalDelta('100000', '100000')).toBe('0');
    expect(decimalDelta('12.30', '12.3')).toBe('0');
    expect(decimalDelta('abc', '1')).toBeNull();
    expect(decimalOf(1e21)).toBe('1000000000000000000000');
  });

  it('reads a plain decimal as written, and nothing else', () => {
    expect(parseDecimal(' -10.50 ')).toEqual({ units: -1050n, scale: 2 });
    expect(parseDecimal('+7')).toEqual({ units: 7n, scale: 0 });
    expect(parseDecimal('1e3')).toBeNull();
    expect(parseDecimal('1.')).toBeNull();
  });

  it('writes a decimal without trailing zeros', () => {
    expect(printDecimal(1050n, 2)).toBe('10.5');
    expect(printDecimal(100n, 2)).toBe('1');
    expect(printDecimal(-5n, 2)).toBe('-0.05');
    expect(printDecimal(42n, 0)).toBe('42');
  });
});
