import { describe, expect, it } from 'vitest';
import { currencyExponent, formatMoney, minorToDecimal } from '../../../src-main/shared/money';

describe('money by its currency', () => {
  it("takes each currency's ISO 4217 exponent from Intl, 2 for a code it does not know", () => {
    expect(['JPY', 'EUR', 'USD', 'BHD', 'KWD', 'ZZZ', 'nonsense', null].map(currencyExponent)).toEqual([0, 2, 2, 3, 3, 2, 2, 2]);
  });

  it('writes minor units as the decimal amount, by digits', () => {
    expect(minorToDecimal(100, 2)).toBe('1.00');
    expect(minorToDecimal(5, 2)).toBe('0.05');
    expect(minorToDecimal(-1234, 3)).toBe('-1.234');
    expect(minorToDecimal(100, 0)).toBe('100');
    expect(minorToDecimal(9007199254740991, 2)).toBe('90071992547409.91');
    expect(minorToDecimal(1.5, 2)).toBeNull();
  });

  it('shows EUR and JPY minor units as a person reads them, compact in a list and with the minor count in a detail', () => {
    expect(formatMoney(100, 'EUR', true)).toBe('1.00 EUR');
    expect(formatMoney(100, 'EUR', true, 'detail')).toBe('1.00 EUR (100 minor units)');
    expect(formatMoney(100, 'JPY', true)).toBe('100 JPY');
    expect(formatMoney(100, 'JPY', true, 'detail')).toBe('100 JPY (100 minor units)');
    expect(formatMoney(1500, 'BHD', true)).toBe('1.500 BHD');
  });

  it('leaves decimal amounts, and a fraction on an integer profile, as written', () => {
    expect(formatMoney(1.5, 'EUR', false)).toBe('1.5 EUR');
    expect(formatMoney(100, 'EUR', false)).toBe('100 EUR');
    expect(formatMoney(1.5, 'EUR', true)).toBe('1.5 EUR');
    expect(formatMoney(null, null, true)).toBe('');
    expect(formatMoney(null, 'EUR', true)).toBe('? EUR');
  });
});
