// A masked query value given back keeps the stored one, matched by name and order; a typed value
// replaces it; a masked value with nothing stored under its name is refused naming only the name.
import { describe, expect, it } from 'vitest';
import { withKeptQueryValues } from '../../../src-main/core/balance-probe/kept-query-values';
import { maskedBalanceUrl } from '../../../src-main/core/balance-probe/probe-secrets';
import { DeskFailure } from '../../../src-main/core/result';

const STORED = 'https://op.example/b/{userId}?key=k-1&key=k-2&user={userId}&empty=&fmt=json#top';

describe('withKeptQueryValues', () => {
  it('gives back the stored URL for its masked form, every value in its place', () => {
    const masked = maskedBalanceUrl(STORED);
    expect(masked).toBe('https://op.example/b/{userId}?key=***&key=***&user={userId}&empty=&fmt=***#top');
    expect(withKeptQueryValues(masked, STORED)).toBe(STORED);
  });

  it('keeps what is masked and takes what is typed, whatever else changed', () => {
    expect(withKeptQueryValues('http://other.example/x?key=new&key=***&fmt=xml', STORED)).toBe('http://other.example/x?key=new&key=k-2&fmt=xml');
    expect(withKeptQueryValues('http://op.example/x?fmt=***', STORED)).toBe('http://op.example/x?fmt=json');
  });

  it('leaves a URL without a masked value as it is', () => {
    expect(withKeptQueryValues('http://op.example/x?key=abc', null)).toBe('http://op.example/x?key=abc');
    expect(withKeptQueryValues('http://op.example/x', STORED)).toBe('http://op.example/x');
  });

  it('refuses a masked value with nothing stored under its name, quoting no stored value', () => {
    for (const [given, stored] of [
      ['http://op.example/x?token=***', STORED],
      ['http://op.example/x?key=***&key=***&key=***', STORED],
      ['http://op.example/x?key=***', null],
    ] as const) {
      let error: unknown;
      try {
        withKeptQueryValues(given, stored);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(DeskFailure);
      expect((error as DeskFailure).message).toMatch(/none is stored under "(token|key)": type the value/);
      expect((error as DeskFailure).message).not.toContain('k-1');
    }
  });
});
