import { describe, expect, it } from 'vitest';
import { checkSignature, sign } from '../../../src-main/core/signing';
import { acceptedBadSignatureText } from '../../../src-main/shared/exchange-warnings';
import { counted, RECORDED_BEFORE_SECRET, signatureNotesNow, verdictWords } from '../../../src-main/shared/verdict-words';

const body = Buffer.from('{"userId":"u1","depositId":"d1","currency":"EUR","amount":100}');

describe('verdict words agree with the diagnosis', () => {
  it('an uppercase-hex mismatch is the right HMAC, never "does not match the body"', () => {
    const report = checkSignature(body, sign(body, 's').toUpperCase(), [{ profile: 'p', secret: 's', primary: true }]);
    expect(report.verdict).toBe('mismatch');
    expect(verdictWords(report.verdict!, report.diagnosis)).toBe('the right HMAC, written in uppercase hex: receivers that compare hex strings reject it');
  });

  it('a plain mismatch says so', () => {
    const report = checkSignature(body, sign(body, 'other'), [{ profile: 'p', secret: 's', primary: true }]);
    expect(verdictWords(report.verdict!, report.diagnosis)).toBe('the signature does not match the body');
  });

  it('an accepted bad signature is told in words, not "whose signature is mismatch"', () => {
    expect(acceptedBadSignatureText('mismatch')).toBe('the operator accepted a callback whose signature does not match its body');
    expect(acceptedBadSignatureText('missing')).toBe('the operator accepted a callback with no signature');
  });

  it('counts in the singular for one', () => {
    expect(counted(1, 'variant')).toBe('1 variant');
    expect(counted(3, 'variant')).toBe('3 variants');
  });

  it('a capture judged before a secret was set says so once the profile has one', () => {
    const report = checkSignature(body, sign(body, 's'), []);
    expect(report.verdict).toBe('no-secret');
    expect(signatureNotesNow(report.notes, report.verdict, false)).toEqual(report.notes);
    const now = signatureNotesNow(report.notes, report.verdict, true);
    expect(now).toContain(RECORDED_BEFORE_SECRET);
    expect(now.join(' ')).not.toMatch(/No signing secret is configured/);
  });
});
