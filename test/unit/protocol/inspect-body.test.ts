import { describe, it, expect } from 'vitest';
import { inspect } from '../../../src-main/core/protocol/inspect';
import { VALID_PAY, json, levels, utf8 } from './helpers';

describe('inspect: bytes that are not a JSON object', () => {
  it('an empty body is an error', () => {
    const findings = inspect('pay', new Uint8Array());
    expect(findings).toEqual([{ level: 'error', path: '$', message: expect.stringContaining('empty') }]);
  });

  it('a whitespace-only body is an error', () => {
    expect(levels(inspect('pay', utf8('  \n')), 'error')).toHaveLength(1);
  });

  it('invalid UTF-8 is an error naming the byte and its offset', () => {
    const bytes = new Uint8Array([...utf8('{"userId":"'), 0xe9, ...utf8('"}')]); // Latin-1 é
    const findings = inspect('pay', bytes);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.level).toBe('error');
    expect(findings[0]?.message).toContain('not valid UTF-8');
    expect(findings[0]?.message).toContain('0xE9 at offset 11');
  });

  it('a real U+FFFD before the bad byte does not shift the offset', () => {
    const bytes = new Uint8Array([...utf8('{"a":"\uFFFD'), 0xff, ...utf8('"}')]);
    expect(inspect('pay', bytes)[0]?.message).toContain('0xFF at offset 9');
  });

  it('UTF-16 input is named as such', () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]);
    expect(inspect('pay', bytes)[0]?.message).toContain('UTF-16');
  });

  it('text that is not JSON is an error with the position', () => {
    const findings = inspect('pay', utf8('{\n"a": 1,\n}'));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ level: 'error', path: '$' });
    expect(findings[0]?.message).toMatch(/^body is not valid JSON: /);
    expect(findings[0]?.message).toMatch(/line 3/);
  });

  it.each([
    ['[1,2]', 'an array'],
    ['"text"', 'a string'],
    ['null', 'null'],
    ['42', 'a number'],
  ])('%s is not an object', (body, what) => {
    const findings = inspect('results', utf8(body));
    expect(findings).toEqual([{ level: 'error', path: '$', message: `body must be a JSON object ({ ... }); got ${what}` }]);
  });

  it('a UTF-8 BOM is a warning, and the body is still checked', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...json(VALID_PAY)]);
    const findings = inspect('pay', bytes);
    expect(findings).toEqual([{ level: 'warning', path: '$', message: expect.stringContaining('byte order mark') }]);
    const bad = new Uint8Array([0xef, 0xbb, 0xbf, ...json({ ...VALID_PAY, amount: -1 })]);
    expect(levels(inspect('pay', bad), 'error')).toHaveLength(1);
  });
});
