import { describe, it, expect } from 'vitest';
import { setPath, unsetPath, parseCliValue, JsonPathError } from '../../../src-main/core/protocol/json-path';

const body = () => ({ amount: 5, errors: [{ code: 'A', isClientSafe: true }], nested: { deep: { x: 1 } } });

describe('setPath', () => {
  it('sets top-level and nested fields without changing the input', () => {
    const input = body();
    const out = setPath(input, 'errors[0].code', 'B') as ReturnType<typeof body>;
    expect(out.errors[0]?.code).toBe('B');
    expect(input.errors[0]?.code).toBe('A');
    expect(out.nested).not.toBe(input.nested);
    expect(setPath(input, 'amount', -1)).toMatchObject({ amount: -1 });
  });

  it('accepts the paths of findings, dotted indexes and quoted keys', () => {
    expect(setPath(body(), '$.errors[0].isClientSafe', 'true')).toMatchObject({ errors: [{ isClientSafe: 'true' }] });
    expect(setPath(body(), 'errors.0.code', 'C')).toMatchObject({ errors: [{ code: 'C' }] });
    expect(setPath({}, '$["odd key"].x', 1)).toEqual({ 'odd key': { x: 1 } });
  });

  it('creates missing objects, arrays for [n], and appends at the end of an array', () => {
    expect(setPath({}, 'a.b.c', 1)).toEqual({ a: { b: { c: 1 } } });
    expect(setPath({}, 'list[0].code', 'X')).toEqual({ list: [{ code: 'X' }] });
    expect(setPath({}, 'map.0', 'X')).toEqual({ map: { '0': 'X' } });
    expect(setPath(body(), 'errors[1]', { code: 'Z' })).toMatchObject({ errors: [{ code: 'A' }, { code: 'Z' }] });
  });

  it('$ replaces the whole value; the set value is copied', () => {
    const value = { a: [1] };
    const out = setPath(body(), '$', value) as typeof value;
    expect(out).toEqual(value);
    expect(out).not.toBe(value);
  });

  it('explains impossible paths', () => {
    expect(() => setPath(body(), 'amount.currency', 'USD')).toThrow('cannot go into $.amount: it is a number, not an object or array');
    expect(() => setPath(body(), 'errors[5]', 1)).toThrow(/has 1 items, so the next index is 1/);
    expect(() => setPath(body(), 'errors.code', 1)).toThrow(/is an array; use a number index/);
    expect(() => setPath(body(), 'nested[0]', 1)).toThrow(/is an object, not an array/);
    expect(() => setPath(body(), 'a..b', 1)).toThrow(JsonPathError);
    expect(() => setPath(body(), 'a[x]', 1)).toThrow(/after "\["/);
    expect(() => setPath(body(), '', 1)).toThrow(/empty path/);
    expect(() => setPath(body(), 'a', undefined)).toThrow(/not a JSON value/);
  });

  it('a key named __proto__ becomes a plain field, not a prototype', () => {
    const out = setPath({}, '__proto__', { polluted: true }) as Record<string, unknown>;
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true}}');
  });
});

describe('unsetPath', () => {
  it('removes fields and array items without changing the input', () => {
    const input = body();
    expect(unsetPath(input, 'amount')).not.toHaveProperty('amount');
    expect(input.amount).toBe(5);
    expect(unsetPath(input, 'errors[0].isClientSafe')).toMatchObject({ errors: [{ code: 'A' }] });
    expect((unsetPath(input, 'errors[0]') as ReturnType<typeof body>).errors).toEqual([]);
  });

  it('explains what is missing', () => {
    expect(() => unsetPath(body(), 'amonut')).toThrow('nothing to remove at $.amonut ($ has fields: amount, errors, nested)');
    expect(() => unsetPath(body(), 'missing.x')).toThrow('nothing at $.missing');
    expect(() => unsetPath(body(), '$')).toThrow(/whole body/);
    expect(() => unsetPath(body(), 'errors[3]')).toThrow(/1 items/);
  });
});

describe('parseCliValue', () => {
  it.each([
    ['5', 5],
    ['-2.5', -2.5],
    ['true', true],
    ['null', null],
    ['"5"', '5'],
    ['{"a":[1]}', { a: [1] }],
    ['USD', 'USD'],
    ['', ''],
    ['{broken', '{broken'],
  ])('%s', (text, value) => {
    expect(parseCliValue(text)).toEqual(value);
  });
});
