import { describe, it, expect } from 'vitest';
import { inspect, MAX_FINDINGS } from '../../../src-main/core/protocol/inspect';
import { TOURNAMENT, VALID_PAY, VALID_RESULTS, at, json, levels, utf8 } from './helpers';

describe('inspect: pay request (2.1)', () => {
  it('a valid pay has no findings, with or without tournamentId', () => {
    expect(inspect('pay', json(VALID_PAY))).toEqual([]);
    expect(inspect('pay', json({ ...VALID_PAY, tournamentId: TOURNAMENT }))).toEqual([]);
    expect(inspect('pay', json({ ...VALID_PAY, tournamentId: TOURNAMENT.toUpperCase() }))).toEqual([]);
  });

  it.each(['userId', 'depositId', 'currency', 'amount'])('missing %s is an error at its path', (field) => {
    const body: Record<string, unknown> = { ...VALID_PAY };
    delete body[field];
    const findings = inspect('pay', json(body));
    expect(findings).toEqual([{ level: 'error', path: `$.${field}`, message: `${field} is required in a pay request but is missing` }]);
  });

  it.each([
    [-5, 'amount must be a finite number greater than 0; got -5'],
    [0, 'amount must be a finite number greater than 0; got 0'],
    ['5', 'amount must be a finite number greater than 0; got "5" (a string) (write the number without quotes)'],
    [null, 'amount must be a finite number greater than 0; got null'],
  ])('amount %j is an error', (amount, message) => {
    expect(inspect('pay', json({ ...VALID_PAY, amount }))).toEqual([{ level: 'error', path: '$.amount', message }]);
  });

  it('an amount too large for a double (1e400) is an error', () => {
    const findings = inspect('pay', utf8('{"userId":"u","depositId":"d","currency":"USD","amount":1e400}'));
    expect(at(findings, '$.amount', 'error')[0]?.message).toContain('too large');
  });

  it('wrong types of string fields are errors', () => {
    const findings = inspect('pay', json({ ...VALID_PAY, userId: 42, currency: ['USD'] }));
    expect(at(findings, '$.userId', 'error')[0]?.message).toBe('userId must be a string; got 42');
    expect(at(findings, '$.currency', 'error')[0]?.message).toBe('currency must be a string; got an array of 1');
  });

  it.each(['abc', '3f1c2a9e-8b7d-1e6f-9a1b-2c3d4e5f6a7b', `${TOURNAMENT}x`])('tournamentId %s is not a UUID v4', (tournamentId) => {
    const findings = inspect('pay', json({ ...VALID_PAY, tournamentId }));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ level: 'error', path: '$.tournamentId' });
    expect(findings[0]?.message).toContain('UUID v4');
  });

  it('unknown extra fields are info, with a bracket path for odd keys', () => {
    const findings = inspect('pay', json({ ...VALID_PAY, note: 'x', 'odd key': 1 }));
    expect(findings.map((f) => [f.level, f.path])).toEqual([
      ['info', '$.note'],
      ['info', '$["odd key"]'],
    ]);
  });

  it('empty and space-padded ids are warnings', () => {
    const findings = inspect('pay', json({ ...VALID_PAY, depositId: '', userId: ' u-1' }));
    expect(at(findings, '$.depositId', 'warning')).toHaveLength(1);
    expect(at(findings, '$.userId', 'warning')[0]?.message).toContain('whitespace');
    expect(levels(findings, 'error')).toEqual([]);
  });

  it('duplicate keys are a warning at the duplicated key, also when nested or escaped', () => {
    const findings = inspect('pay', utf8('{"userId":"u","depositId":"d","currency":"USD","amount":5,"amount":-5}'));
    expect(at(findings, '$.amount', 'warning')[0]?.message).toContain('appears 2 times');
    // JSON.parse keeps the last value, so the -5 is also judged.
    expect(at(findings, '$.amount', 'error')).toHaveLength(1);

    const escaped = inspect('pay', utf8('{"userId":"u","depositId":"d","currency":"USD","amount":5,"\\u0061mount":5}'));
    expect(at(escaped, '$.amount', 'warning')).toHaveLength(1);

    const nested = inspect('payment-error', utf8('{"errors":[{"code":"A","isClientSafe":true},{"code":"B","code":"C","isClientSafe":true}]}'));
    expect(at(nested, '$.errors[1].code', 'warning')).toHaveLength(1);
    expect(at(nested, '$.errors[0].code')).toEqual([]);
  });

  it('a quote inside a string value does not confuse the duplicate-key scan', () => {
    const body = utf8('{"userId":"a\\"b","depositId":"x\\\\","currency":"USD","amount":5,"n":{"userId":1}}');
    expect(levels(inspect('pay', body), 'warning')).toEqual([]);
    // A value that looks like a second userId member once its escapes are ignored.
    const tricky = utf8('{"userId":"x\\",\\"userId\\":\\"y","depositId":"d","currency":"USD","amount":5}');
    expect(JSON.parse(new TextDecoder().decode(tricky)).userId).toBe('x","userId":"y');
    expect(inspect('pay', tricky)).toEqual([]);
  });

  it('errors come before warnings before infos', () => {
    const findings = inspect('pay', json({ ...VALID_PAY, extra: 1, userId: '', amount: -1 }));
    expect(findings.map((f) => f.level)).toEqual(['error', 'warning', 'info']);
  });

  it('caps the list at MAX_FINDINGS with a summary', () => {
    const body: Record<string, unknown> = { ...VALID_PAY };
    for (let i = 0; i < 300; i++) body[`x${i}`] = i;
    const findings = inspect('pay', json(body));
    expect(findings).toHaveLength(MAX_FINDINGS);
    expect(findings[MAX_FINDINGS - 1]?.message).toBe('201 more findings not shown');
  });
});

describe('inspect: result request (2.2)', () => {
  it('unknown result values are errors, with a hint for a case mistake', () => {
    const tie = inspect('results', json({ ...VALID_RESULTS.WIN, result: 'TIE' }));
    expect(at(tie, '$.result', 'error')[0]?.message).toBe('result must be one of WIN, DRAW, LOSE, REFUND; got "TIE" (a string)');
    const lower = inspect('results', json({ ...VALID_RESULTS.WIN, result: 'win' }));
    expect(at(lower, '$.result', 'error')[0]?.message).toContain('did you mean "WIN"?');
  });

  it('with an unknown result, common fields and types are still checked', () => {
    const findings = inspect('results', json({ result: 'TIE', userId: 'u', amount: -1, roomId: null, extra: 1 }));
    expect(findings.map((f) => [f.level, f.path])).toEqual([
      ['error', '$.result'],
      ['error', '$.depositId'],
      ['error', '$.amount'],
      ['info', '$.extra'],
    ]);
  });

  it('missing result is an error listing the allowed values', () => {
    const { result: _r, ...body } = VALID_RESULTS.WIN;
    expect(at(inspect('results', json(body)), '$.result', 'error')[0]?.message).toContain('WIN, DRAW, LOSE, REFUND');
  });

  it('gameId outside solitaire/blocks/blackjack is an error', () => {
    const findings = inspect('results', json({ ...VALID_RESULTS.LOSE, gameId: 'chess' }));
    expect(findings).toEqual([{ level: 'error', path: '$.gameId', message: 'gameId must be one of solitaire, blocks, blackjack; got "chess" (a string)' }]);
  });

  it.each(['WIN', 'DRAW', 'LOSE'] as const)('null roomId/gameId in %s is an error that names REFUND', (result) => {
    const findings = inspect('results', json({ ...VALID_RESULTS[result], roomId: null, gameId: null }));
    expect(findings.map((f) => [f.level, f.path])).toEqual([
      ['error', '$.roomId'],
      ['error', '$.gameId'],
    ]);
    expect(findings[0]?.message).toContain('only in a REFUND result');
  });

  it('null roomId/gameId in REFUND is fine, missing is not', () => {
    expect(inspect('results', json({ ...VALID_RESULTS.REFUND, roomId: null, gameId: null }))).toEqual([]);
    const { roomId: _r, ...noRoom } = VALID_RESULTS.REFUND;
    expect(inspect('results', json(noRoom))).toEqual([{ level: 'error', path: '$.roomId', message: 'roomId is required in a REFUND result but is missing' }]);
  });

  it('currency/amount on LOSE and tournamentId on REFUND are info', () => {
    const lose = inspect('results', json({ ...VALID_RESULTS.LOSE, currency: 'USD', amount: 5 }));
    expect(lose.map((f) => [f.level, f.path])).toEqual([
      ['info', '$.currency'],
      ['info', '$.amount'],
    ]);
    expect(lose[0]?.message).toBe('currency is not listed for a LOSE result; the operator is expected to ignore it');
    const refund = inspect('results', json({ ...VALID_RESULTS.REFUND, tournamentId: TOURNAMENT }));
    expect(refund).toEqual([{ level: 'info', path: '$.tournamentId', message: expect.stringContaining('not listed for a REFUND') }]);
  });
});

describe('inspect: token messages (2.4, 2.5)', () => {
  it('token request', () => {
    expect(inspect('token-request', json({ userId: 'u', displayName: 'Ann' }))).toEqual([]);
    expect(at(inspect('token-request', json({ userId: 'u' })), '$.displayName', 'error')).toHaveLength(1);
    expect(at(inspect('token-request', json({ userId: 'u', displayName: 7 })), '$.displayName', 'error')).toHaveLength(1);
  });

  it('token response', () => {
    expect(inspect('token-response', json({ status: 200, data: { token: 'aGk.eyJ9.c2ln' } }))).toEqual([]);
    expect(at(inspect('token-response', json({ status: 200 })), '$.data', 'error')).toHaveLength(1);
    expect(at(inspect('token-response', json({ status: 200, data: 'x' })), '$.data', 'error')).toHaveLength(1);
    expect(at(inspect('token-response', json({ status: 200, data: {} })), '$.data.token', 'error')).toHaveLength(1);
    expect(at(inspect('token-response', json({ status: '200', data: { token: 'a.b.c' } })), '$.status', 'error')).toHaveLength(1);
    expect(at(inspect('token-response', json({ status: 401, data: { token: 'a.b.c' } })), '$.status', 'info')).toHaveLength(1);
    expect(at(inspect('token-response', json({ status: 200, data: { token: 'opaque' } })), '$.data.token', 'info')).toHaveLength(1);
  });
});

describe('inspect: payment error body (2.6)', () => {
  const ok = { errors: [{ code: 'INSUFFICIENT_BALANCE', isClientSafe: true }] };

  it('a valid body has no findings', () => {
    expect(inspect('payment-error', json(ok))).toEqual([]);
  });

  it('isClientSafe as the string "true" is an error with a hint', () => {
    const findings = inspect('payment-error', json({ errors: [{ code: 'X', isClientSafe: 'true' }] }));
    expect(findings).toEqual([
      {
        level: 'error',
        path: '$.errors[0].isClientSafe',
        message: 'isClientSafe must be a boolean (true or false); got "true" (a string) (use the JSON boolean true without quotes, not the string "true")',
      },
    ]);
  });

  it('errors must be an array of objects with a string code', () => {
    expect(at(inspect('payment-error', json({})), '$.errors', 'error')).toHaveLength(1);
    expect(at(inspect('payment-error', json({ errors: {} })), '$.errors', 'error')).toHaveLength(1);
    expect(at(inspect('payment-error', json({ errors: ['X'] })), '$.errors[0]', 'error')).toHaveLength(1);
    expect(at(inspect('payment-error', json({ errors: [{ code: 1, isClientSafe: true }] })), '$.errors[0].code', 'error')).toHaveLength(1);
    expect(at(inspect('payment-error', json({ errors: [{ code: 'X' }] })), '$.errors[0].isClientSafe', 'error')).toHaveLength(1);
  });

  it('an empty errors array is a warning; isClientSafe false is info', () => {
    expect(inspect('payment-error', json({ errors: [] }))).toEqual([{ level: 'warning', path: '$.errors', message: expect.any(String) }]);
    const notSafe = inspect('payment-error', json({ errors: [{ code: 'X', isClientSafe: false }] }));
    expect(notSafe).toEqual([{ level: 'info', path: '$.errors[0].isClientSafe', message: expect.stringContaining('handleError') }]);
  });
});
