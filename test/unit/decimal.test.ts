import { describe, expect, it } from 'vitest';
import { decimalDelta, decimalOf, parseDecimal, printDecimal, scaledOfNumber, significantDigits, sumOf } from '../../src-main/core/decimal';

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

  it('reads a number as its shortest spelling writes it, exponent included', () => {
    expect(scaledOfNumber(0.1)).toEqual({ units: 1n, scale: 1 });
    expect(scaledOfNumber(-10.5)).toEqual({ units: -105n, scale: 1 });
    expect(scaledOfNumber(1e21)).toEqual({ units: 10n ** 21n, scale: 0 });
    expect(scaledOfNumber(1.5e-7)).toEqual({ units: 15n, scale: 8 });
    expect(scaledOfNumber(Number.NaN)).toBeNull();
    expect(scaledOfNumber(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('adds at the finer scale and counts significant digits', () => {
    expect(sumOf({ units: 1n, scale: 1 }, { units: 2n, scale: 1 })).toEqual({ units: 3n, scale: 1 });
    expect(sumOf({ units: 1000n, scale: 0 }, { units: -1n, scale: 1 })).toEqual({ units: 9999n, scale: 1 });
    expect(significantDigits({ units: -1050n, scale: 2 })).toBe(3);
    expect(significantDigits({ units: 0n, scale: 0 })).toBe(0);
  });
});
