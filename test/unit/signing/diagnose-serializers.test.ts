import { describe, expect, it } from 'vitest';
import { diagnose, sign } from '../../../src-main/core/signing';
import { pythonFloat } from '../../../src-main/core/signing/number-styles';

const SECRET = 'shared-secret';
const primary = { profile: 'dev', secret: SECRET, primary: true };

/** What the sender sent, what it signed (the text its own encoder wrote, checked against Python 3 and PHP 8). */
function diagnosed(sentText: string, signedText: string) {
  return diagnose(Buffer.from(sentText), sign(Buffer.from(signedText), SECRET), [primary]);
}

describe('the diagnosis names the serializer that wrote whole numbers as floats', () => {
  it('a platform holding amounts as Python floats signs 100.0 and sends 100', () => {
    const d = diagnosed(
      '{"userId":"u1","depositId":"d1","currency":"USD","amount":100}',
      '{"userId": "u1", "depositId": "d1", "currency": "USD", "amount": 100.0}',
    );
    expect(d.match?.variant).toBe('python-json-dumps-floats');
    expect(d.summary).toContain("Python's json.dumps");
    expect(d.summary).toContain('100 as 100.0');
  });

  it('a float spelled 100.0 is kept as Python writes it back (not as JavaScript would, 100)', () => {
    const d = diagnosed('{"userId": "u1", "amount": 100.0}', '{"userId":"u1","amount":100.0}');
    // PHP's json_encode writes this body the same way: the diagnosis names both, the common default first.
    expect(d.match?.variant).toBe('php-json-encode');
    expect(d.summary).toMatch(/Python's json\.dumps\(\.\.\., separators=\(",", ":"\)\) writes it .* would write these same bytes/);
    expect(diagnosed('{"userId": "u/1", "amount": 100.0}', '{"userId":"u/1","amount":100.0}').match?.variant).toBe('python-json-dumps-compact');
  });

  it('1e16 as Python writes it back (1e+16)', () => {
    const d = diagnosed('{"userId":"u1","amount":1e16}', '{"userId": "u1", "amount": 1e+16}');
    expect(d.match?.variant).toBe('python-json-dumps');
  });

  it('an integer amount signed as a compact float by Python', () => {
    expect(diagnosed('{"amount":10000000000000000}', '{"amount":1e+16}').match?.variant).toBe('python-json-dumps-compact-floats');
  });

  it('a whole float sent and signed the way JavaScript writes it (100.0 as 100) stays compact JSON', () => {
    expect(diagnosed('{"amount": 100.0}', '{"amount":100}').match?.variant).toBe('compact-json');
  });

  it("writes floats as Python's repr does", () => {
    expect([100, 1e16, 1e-5, 1.5e20, -0, 0.0001, 1e15, 123456789012345678].map(pythonFloat)).toEqual([
      '100.0',
      '1e+16',
      '1e-05',
      '1.5e+20',
      '-0.0',
      '0.0001',
      '1000000000000000.0',
      '1.2345678901234568e+17',
    ]);
  });
});

describe("the diagnosis knows PHP's encoder", () => {
  it('json_decode($body, true) then json_encode turns an empty object into []', () => {
    const d = diagnosed('{"userId":"u1","meta":{},"amount":5}', '{"userId":"u1","meta":[],"amount":5}');
    expect(d.match?.variant).toBe('php-json-encode-assoc');
    expect(d.summary).toContain('{} as []');
  });

  it('names non-ASCII escapes by PHP, not Python, where both would write the body alike', () => {
    const d = diagnosed('{"userId":"usér-1","amount":5}', '{"userId":"us\\u00e9r-1","amount":5}');
    expect(d.match?.variant).toBe('php-json-encode');
    expect(d.summary).toMatch(/^The sender signed the body as PHP's json_encode writes it by default/);
  });

  it('escaped slashes are PHP', () => {
    expect(diagnosed('{"userId":"a/b","amount":5}', '{"userId":"a\\/b","amount":5}').match?.variant).toBe('php-json-encode');
  });

  it('a whole float keeps its .0 through PHP', () => {
    expect(diagnosed('{"userId":"a/b","amount":100}', '{"userId":"a\\/b","amount":100.0}').match?.variant).toBe('php-json-encode-floats');
  });

  it('does not try the float or {} variants where they cannot differ', () => {
    const d = diagnose(Buffer.from('{"a":"x","b":1.5}'), sign(Buffer.from('nothing'), SECRET), [primary]);
    expect(d.tried.join('\n')).not.toMatch(/\{\} as \[\]|numbers are floats/);
  });
});
