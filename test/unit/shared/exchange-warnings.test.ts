import { describe, expect, it } from 'vitest';
import { acceptedBadSignature, deskAnswerText, deskAnswered, errorInWords } from '../../../src-main/shared/exchange-warnings';
import type { Verdict } from '../../../src-main/shared/model';

const row = (verdict: Verdict | null, status: number | null, error: string | null = null, direction: 'inbound' | 'outbound' = 'inbound') => ({
  direction,
  error,
  signature: { verdict },
  response: status === null ? null : { status },
});

describe('what a row alone says is bad news', () => {
  it('a 2XX to a mismatched, missing or malformed signature; not to a valid one, a refusal, or one the desk could not check', () => {
    expect(acceptedBadSignature(row('mismatch', 200))).toBe('mismatch');
    expect(acceptedBadSignature(row('missing', 204))).toBe('missing');
    expect(acceptedBadSignature(row('malformed', 200, null, 'outbound'))).toBe('malformed');
    expect(acceptedBadSignature(row('valid', 200))).toBeNull();
    expect(acceptedBadSignature(row('mismatch', 401))).toBeNull();
    expect(acceptedBadSignature(row('no-secret', 200))).toBeNull();
    expect(acceptedBadSignature(row('mismatch', null, 'refused'))).toBeNull();
  });

  it("an answer the proxy made in the operator's place, its cause in words", () => {
    const refused = row('valid', 502, 'the upstream is unreachable: connect ECONNREFUSED 127.0.0.1:9199');
    expect(deskAnswered(refused)).toBe(true);
    expect(deskAnswerText(refused)).toBe(
      'The desk answered 502 itself, not the operator: the desk could not reach the operator at 127.0.0.1:9199: connection refused.',
    );
    expect(deskAnswered(row('valid', 200))).toBe(false);
    expect(deskAnswered(row('valid', 502, 'x', 'outbound'))).toBe(false);
    expect(errorInWords('the upstream did not answer within 30000 ms')).toBe('the operator did not answer within 30000 ms, so the desk answered in its place');
    expect(errorInWords('the upstream is unreachable: getaddrinfo ENOTFOUND operator.example')).toBe(
      'the desk could not reach the operator at operator.example: the host name was not found',
    );
    expect(errorInWords('something else')).toBe('something else');
  });
});
