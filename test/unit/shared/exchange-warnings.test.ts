import { describe, expect, it } from 'vitest';
import { errorInWords, faultNote, whoAnswered, type AnswerFacts } from '../../../src-main/shared/answered-by';
import { acceptedBadSignature, deskAnswerText, deskAnswered } from '../../../src-main/shared/exchange-warnings';
import type { Verdict } from '../../../src-main/shared/model';

const facts = (status: number | null, fields: Partial<AnswerFacts> = {}): AnswerFacts => ({
  direction: 'inbound',
  response: status === null ? null : { status },
  error: null,
  truncated: false,
  faultNote: null,
  ...fields,
});

const row = (verdict: Verdict | null, status: number | null, fields: Partial<AnswerFacts> = {}) => {
  const f = facts(status, fields);
  return { ...f, signature: { verdict }, ...whoAnswered(f) };
};

describe('what a row alone says is bad news', () => {
  it('a 2XX to a mismatched, missing or malformed signature; not to a valid one, a refusal, or one the desk could not check', () => {
    expect(acceptedBadSignature(row('mismatch', 200))).toBe('mismatch');
    expect(acceptedBadSignature(row('missing', 204))).toBe('missing');
    expect(acceptedBadSignature(row('malformed', 200, { direction: 'outbound' }))).toBe('malformed');
    expect(acceptedBadSignature(row('valid', 200))).toBeNull();
    expect(acceptedBadSignature(row('mismatch', 401))).toBeNull();
    expect(acceptedBadSignature(row('no-secret', 200))).toBeNull();
    expect(acceptedBadSignature(row('mismatch', null, { error: 'refused' }))).toBeNull();
  });

  it('a 2XX the desk made itself (a fault) is not the operator accepting anything', () => {
    const note = faultNote('fault 4: answer 200', 'answered 200 by the proxy; the upstream was not asked');
    expect(acceptedBadSignature(row('mismatch', 200, { faultNote: note }))).toBeNull();
  });

  it("an answer the proxy made in the operator's place, its cause in words", () => {
    const refused = row('valid', 502, { error: 'the upstream is unreachable: connect ECONNREFUSED 127.0.0.1:9199' });
    expect(deskAnswered(refused)).toBe(true);
    expect(deskAnswerText(refused)).toBe(
      'The desk answered 502 itself, not the operator: the desk could not reach the operator at 127.0.0.1:9199: connection refused.',
    );
    expect(deskAnswered(row('valid', 200))).toBe(false);
    expect(deskAnswered(row('valid', 502, { error: 'x', direction: 'outbound' }))).toBe(false);
    expect(errorInWords('the upstream did not answer within 30000 ms')).toBe('the operator did not answer within 30000 ms, so the desk answered in its place');
    expect(errorInWords('the upstream is unreachable: getaddrinfo ENOTFOUND operator.example')).toBe(
      'the desk could not reach the operator at operator.example: the host name was not found',
    );
    expect(errorInWords('something else')).toBe('something else');
  });
});

describe('who answered', () => {
  it('the operator, for a relayed answer and for what the desk sends out', () => {
    expect(whoAnswered(facts(200))).toEqual({ answeredBy: 'operator', deskCause: null });
    expect(whoAnswered(facts(503))).toEqual({ answeredBy: 'operator', deskCause: null });
    expect(whoAnswered(facts(502, { direction: 'outbound', error: 'x' }))).toEqual({ answeredBy: 'operator', deskCause: null });
  });

  it('nobody yet, or nobody at all: no answer and no fault', () => {
    expect(whoAnswered(facts(null))).toEqual({ answeredBy: null, deskCause: null });
    expect(whoAnswered(facts(null, { error: 'the client closed the connection after 3 of 10 body bytes' }))).toEqual({ answeredBy: null, deskCause: null });
  });

  it('the desk, for a fault that replaced the answer, with the fault in words', () => {
    const status = whoAnswered(facts(503, { faultNote: faultNote('fault 7: answer 503', 'answered 503 by the proxy; the upstream was not asked') }));
    expect(status).toEqual({ answeredBy: 'desk', deskCause: 'the desk injected fault 7 (answer 503): answered 503 by the proxy; the upstream was not asked' });
    const reset = whoAnswered(
      facts(null, {
        error: 'fault 8: connection reset (injected)',
        faultNote: faultNote('fault 8: connection reset', 'the connection was reset (TCP RST) without an answer; the sandbox was not asked'),
      }),
    );
    expect(reset.answeredBy).toBe('desk');
    expect(reset.deskCause).toContain('fault 8 (connection reset)');
  });

  it('the operator still, for a delay fault (the answer is the operator’s, only later)', () => {
    expect(whoAnswered(facts(200, { faultNote: faultNote('fault 2: delay 50 ms', 'held 50 ms before it was forwarded') })).answeredBy).toBe('operator');
  });

  it('the desk, for a refusal, an unreachable upstream and an oversized body', () => {
    expect(whoAnswered(facts(404, { error: 'no profile’s callback prefix matches /x' }))).toEqual({
      answeredBy: 'desk',
      deskCause: 'no profile’s callback prefix matches /x',
    });
    expect(whoAnswered(facts(504, { error: 'the upstream did not answer within 100 ms' })).deskCause).toBe(
      'the operator did not answer within 100 ms, so the desk answered in its place',
    );
    expect(whoAnswered(facts(413, { truncated: true })).answeredBy).toBe('desk');
    expect(whoAnswered(facts(413)).answeredBy).toBe('operator');
  });
});
