import { describe, expect, it } from 'vitest';
import { checkSignature, diagnose, sign } from '../../../src-main/core/signing';

const SECRET = 'shared-secret';
const sent = Buffer.from('{"userId":"u1","depositId":"d1","currency":"USD","amount":10.50}');
const pretty = Buffer.from('{\n  "userId": "u1",\n  "amount": 5\n}\n');
const primary = { profile: 'dev', secret: SECRET, primary: true };

describe('diagnose', () => {
  it('names another stored secret by its profile, never the secret', () => {
    const d = diagnose(sent, sign(sent, 'staging-secret'), [primary, { profile: 'staging', secret: 'staging-secret' }]);
    expect(d.match).toEqual({ variant: 'other-secret', label: 'the secret of profile "staging"', profile: 'staging' });
    expect(JSON.stringify(d)).not.toContain('staging-secret');
  });

  it.each([
    ['compact-json', sent, Buffer.from(JSON.stringify(JSON.parse(sent.toString())))],
    ['pretty-2', sent, Buffer.from(JSON.stringify(JSON.parse(sent.toString()), null, 2))],
    ['pretty-4', sent, Buffer.from(JSON.stringify(JSON.parse(sent.toString()), null, 4))],
    ['trailing-newline-added', sent, Buffer.concat([sent, Buffer.from('\n')])],
    ['trailing-newline-removed', pretty, pretty.subarray(0, pretty.length - 1)],
    ['bom-stripped', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), sent]), sent],
    ['empty-object', Buffer.alloc(0), Buffer.from('{}')],
  ])('finds %s', (variant, body, signed) => {
    const d = diagnose(body, sign(signed, SECRET), [primary]);
    expect(d.match?.variant).toBe(variant);
    expect(d.summary).toMatch(/signed/);
  });

  // What the senders of each language sign when they decode and encode the body again with defaults.
  const worldly = Buffer.from('{"userId":"usér-1","depositId":"d/1","note":"a<b & c>d = \'e\'","amount":10,"list":[1,2]}');
  it.each([
    ['python-json-dumps', '{"userId": "us\\u00e9r-1", "depositId": "d/1", "note": "a<b & c>d = \'e\'", "amount": 10, "list": [1, 2]}'],
    ['python-json-dumps-unicode', '{"userId": "usér-1", "depositId": "d/1", "note": "a<b & c>d = \'e\'", "amount": 10, "list": [1, 2]}'],
    ['python-json-dumps-compact', '{"userId":"us\\u00e9r-1","depositId":"d/1","note":"a<b & c>d = \'e\'","amount":10,"list":[1,2]}'],
    ['php-json-encode', '{"userId":"us\\u00e9r-1","depositId":"d\\/1","note":"a<b & c>d = \'e\'","amount":10,"list":[1,2]}'],
    ['go-encoding-json', '{"userId":"usér-1","depositId":"d/1","note":"a\\u003cb \\u0026 c\\u003ed = \'e\'","amount":10,"list":[1,2]}'],
    ['go-encoding-json-map', '{"amount":10,"depositId":"d/1","list":[1,2],"note":"a\\u003cb \\u0026 c\\u003ed = \'e\'","userId":"usér-1"}'],
    ['java-gson', '{"userId":"usér-1","depositId":"d/1","note":"a\\u003cb \\u0026 c\\u003ed \\u003d \\u0027e\\u0027","amount":10,"list":[1,2]}'],
  ])('knows how %s re-serializes a body', (variant, signedText) => {
    expect(JSON.parse(signedText)).toEqual(JSON.parse(worldly.toString('utf8')));
    const d = diagnose(worldly, sign(Buffer.from(signedText), SECRET), [primary]);
    expect(d.match?.variant).toBe(variant);
    expect(d.summary).toContain('not the bytes it sent');
  });

  it('finds a secret with stray white space', () => {
    expect(diagnose(sent, sign(sent, `${SECRET}\n`), [primary]).match?.variant).toBe('secret-whitespace');
    expect(diagnose(sent, sign(sent, SECRET.trim()), [{ profile: 'p', secret: ` ${SECRET} `, primary: true }]).match?.variant).toBe('secret-whitespace');
  });

  it('says plainly when nothing matches, and lists what it tried', () => {
    const d = diagnose(sent, sign(sent, 'unknown'), [primary, { profile: 'other', secret: 'x' }]);
    expect(d.match).toBeNull();
    expect(d.summary).toMatch(/No variant reproduces/);
    expect(d.tried).toEqual(expect.arrayContaining(['the secret of profile "other"', 'the body pretty-printed with 2 spaces']));
  });

  it('checkSignature diagnoses only mismatches', () => {
    expect(checkSignature(sent, sign(sent, SECRET), [primary]).diagnosis).toBeNull();
    const report = checkSignature(sent, sign(Buffer.from(JSON.stringify(JSON.parse(sent.toString()))), SECRET), [primary]);
    expect(report.verdict).toBe('mismatch');
    expect(report.diagnosis?.match?.variant).toBe('compact-json');
  });
});

describe('checkSignature without a primary secret', () => {
  it('says no-secret instead of judging with another profile’s secret', () => {
    const report = checkSignature(sent, sign(sent, 'other-secret'), [{ profile: 'other', secret: 'other-secret' }]);
    expect(report.verdict).toBe('no-secret');
    expect(report.diagnosis).toBeNull();
  });
});

describe('diagnose on a very large body', () => {
  it('skips re-serializations (they would stall the proxy) and says so, but still tries byte-level variants', () => {
    const big = Buffer.from(JSON.stringify({ pad: 'x'.repeat(300 * 1024) }, null, 2));
    const compact = Buffer.from(JSON.stringify(JSON.parse(big.toString())));
    const d = diagnose(big, sign(compact, SECRET), [primary]);
    expect(d.match).toBeNull();
    expect(d.tried.join(' | ')).toMatch(/no re-serializations/);
    expect(diagnose(big, sign(Buffer.concat([big, Buffer.from('\n')]), SECRET), [primary]).match?.variant).toBe('trailing-newline-added');
  });
});
