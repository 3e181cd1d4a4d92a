import { describe, expect, it } from 'vitest';
import { jsonLines, parentPath, placeFindings } from '../../../src-renderer/components/json-lines';

describe('JSON lines with the paths findings use', () => {
  it('prints like JSON.stringify with two spaces', () => {
    const value = { a: 1, b: [true, null, { 'odd key': 'x' }], c: {} };
    const text = jsonLines(value)
      .map((l) => '  '.repeat(l.depth) + l.tokens.map((t) => t.text).join(''))
      .join('\n');
    expect(text).toBe(JSON.stringify(value, null, 2));
  });

  it('names each line by the path the protocol module uses', () => {
    const paths = jsonLines({ amount: 5, errors: [{ code: 'X' }], 'odd key': 1 }).map((l) => l.path);
    expect(paths).toEqual(expect.arrayContaining(['$', '$.amount', '$.errors', '$.errors[0]', '$.errors[0].code', '$["odd key"]']));
  });

  it('walks up to the nearest enclosing field', () => {
    expect(parentPath('$.errors[0].code')).toBe('$.errors[0]');
    expect(parentPath('$.errors[0]')).toBe('$.errors');
    expect(parentPath('$["a.b"]')).toBe('$');
    expect(parentPath('$')).toBe('$');
  });

  it('shows a finding at its field, or at the object that lacks the field', () => {
    const lines = jsonLines({ userId: 'u', amount: '5' });
    const placed = placeFindings(lines, [
      { level: 'error', path: '$.amount', message: 'amount must be a number' },
      { level: 'error', path: '$.currency', message: 'currency is required' },
    ]);
    expect(placed.get('$.amount')?.map((f) => f.message)).toEqual(['amount must be a number']);
    expect(placed.get('$')?.map((f) => f.message)).toEqual(['currency is required']);
  });
});
