import { describe, expect, it } from 'vitest';
import { clientErrorsOf } from '../../../src-renderer/features/exchange-detail/client-errors';

describe("what the client SDK's handleError receives for a refused pay", () => {
  it('applies only to a pay answered 4XX', () => {
    expect(clientErrorsOf('pay', 200, '{}')).toBeNull();
    expect(clientErrorsOf('pay', 500, '{}')).toBeNull();
    expect(clientErrorsOf('results', 402, '{"errors":[]}')).toBeNull();
    expect(clientErrorsOf('pay', null, null)).toBeNull();
  });

  it('passes on exactly the errors whose isClientSafe is true', () => {
    const r = clientErrorsOf(
      'pay',
      402,
      JSON.stringify({
        errors: [
          { code: 'INSUFFICIENT_BALANCE', isClientSafe: true },
          { code: 'KYC', isClientSafe: false },
        ],
      }),
    )!;
    expect(r.reaching).toEqual(['INSUFFICIENT_BALANCE']);
    expect(r.withheld).toEqual([{ code: 'KYC', reason: 'isClientSafe is false' }]);
    expect(r.shapeProblems).toEqual([]);
  });

  it('flags a string "true", a missing code, and entries that are not objects', () => {
    const r = clientErrorsOf('pay', 400, JSON.stringify({ errors: [{ code: 'A', isClientSafe: 'true' }, { isClientSafe: true }, 'oops'] }))!;
    expect(r.reaching).toEqual(['(errors[1] without a code)']);
    expect(r.withheld.map((w) => w.code)).toEqual(['A', null]);
    expect(r.shapeProblems.join('\n')).toMatch(/errors\[0\]\.isClientSafe must be the boolean/);
    expect(r.shapeProblems.join('\n')).toMatch(/errors\[1\]\.code must be a string/);
    expect(r.shapeProblems.join('\n')).toMatch(/errors\[2\] must be an object/);
  });

  it('flags a body that is not the error shape at all', () => {
    expect(clientErrorsOf('pay', 403, 'Forbidden')!.shapeProblems[0]).toMatch(/not a JSON object/);
    expect(clientErrorsOf('pay', 403, '')!.shapeProblems[0]).toMatch(/no body/);
    expect(clientErrorsOf('pay', 403, '{"error":"no"}')!.shapeProblems[0]).toMatch(/"errors" must be an array; it is absent/);
    expect(clientErrorsOf('pay', 403, '{"errors":[]}')!.shapeProblems[0]).toMatch(/empty/);
  });
});
