// Where the probe finds a balance: every plain path reads as it always did, filters read through
// jsonpath-plus's safe evaluator, and a user id is only ever a value: never path text it could rewrite.
import { describe, expect, it } from 'vitest';
import { checkProbePath, readProbePath } from '../../../src-main/core/balance-probe/probe-path';

const LEDGER = {
  account: {
    balances: [
      { currency: 'EUR', available: 700, owner: 'alice' },
      { currency: 'USD', available: 1050, owner: 'alice' },
      { currency: 'USD', available: 99, owner: 'a"]*..' },
    ],
  },
  balances: { alice: 1050, 'a"].x["b': 5, '0': 'zero' },
  x: { b: 'wrong place' },
  data: { balance: 42, list: [10, 20] },
};

describe('balance paths', () => {
  it('reads every plain path as before: dots, brackets, indexes, $ optional, {userId} in a key', () => {
    expect(readProbePath(LEDGER, '$.data.balance', 'u')).toEqual({ found: true, value: 42 });
    expect(readProbePath(LEDGER, 'data.balance', 'u')).toEqual({ found: true, value: 42 });
    expect(readProbePath(LEDGER, '$.data.list[1]', 'u')).toEqual({ found: true, value: 20 });
    expect(readProbePath(LEDGER, 'data.list.0', 'u')).toEqual({ found: true, value: 10 });
    expect(readProbePath(LEDGER, '$.balances["{userId}"]', 'alice')).toEqual({ found: true, value: 1050 });
    expect(readProbePath(LEDGER, '$.balances.{userId}', 'alice')).toEqual({ found: true, value: 1050 });
    expect(readProbePath(LEDGER, '$.balances.{userId}', '0')).toEqual({ found: true, value: 'zero' });
    expect(readProbePath(LEDGER, '$.balances["{userId}"]', 'nobody')).toEqual({ found: false, why: 'nothing at $.balances.nobody' });
  });

  it('puts a user id with quotes and brackets into the key, never into the path', () => {
    // Substituted as text, this id would have read $.balances["a"].x["b"]: another place of the answer.
    expect(readProbePath(LEDGER, '$.balances["{userId}"]', 'a"].x["b')).toEqual({ found: true, value: 5 });
    expect(readProbePath(LEDGER, '$.balances.{userId}', 'a"].x["b')).toEqual({ found: true, value: 5 });
  });

  it('reads a filter expression with the safe evaluator', () => {
    const usd = '$.account.balances[?(@.currency=="USD" && @.owner=="alice")].available';
    checkProbePath(usd);
    expect(readProbePath(LEDGER, usd, 'alice')).toEqual({ found: true, value: 1050 });
    expect(readProbePath(LEDGER, "$.account.balances[?(@.currency=='EUR')].available", 'alice')).toEqual({ found: true, value: 700 });
  });

  it('binds {userId} in a filter as a value: quotes, brackets and wildcards in an id are only compared', () => {
    const mine = '$.account.balances[?(@.currency=="USD" && @.owner=="{userId}")].available';
    expect(readProbePath(LEDGER, mine, 'alice')).toEqual({ found: true, value: 1050 });
    expect(readProbePath(LEDGER, mine, 'a"]*..')).toEqual({ found: true, value: 99 });
    // An id that would close the literal and add a condition if it were pasted in matches nobody.
    expect(readProbePath(LEDGER, mine, 'x" || @.owner=="alice')).toEqual({ found: false, why: `nothing matches ${mine}` });
    // Inside a longer literal the id is joined to the rest, still as a value.
    expect(readProbePath({ l: [{ k: 'user-alice', v: 3 }] }, '$.l[?(@.k=="user-{userId}")].v', 'alice')).toEqual({ found: true, value: 3 });
    // A member named by the user, through the filter's @property.
    expect(readProbePath(LEDGER, '$.balances[?(@property=="{userId}")]', 'a"].x["b')).toEqual({ found: true, value: 5 });
  });

  it('says why a filter reads nothing or too much, and refuses {userId} outside a filter', () => {
    const usd = '$.account.balances[?(@.currency=="USD")].available';
    expect(readProbePath(LEDGER, usd, 'u')).toEqual({ found: false, why: `2 values match ${usd}; narrow the filter to one` });
    expect(() => checkProbePath('$.balances["{userId}"][?(@.currency=="USD")].available')).toThrow(/goes inside a filter/);
    expect(() => checkProbePath('$.account.balances[?(@.currency=="USD"].available')).toThrow(/not closed/);
    expect(() => checkProbePath('$.a[')).toThrow();
    const broken = readProbePath(LEDGER, '$.account.balances[?(@.currency=== =)].available', 'u');
    expect(broken.found).toBe(false);
  });

  it('never runs code: a filter that calls or constructs is refused by the evaluator, not executed', () => {
    const g = globalThis as { probeRan?: boolean };
    const reading = readProbePath(LEDGER, '$.account.balances[?(globalThis.probeRan=true)].available', 'u');
    expect(reading.found).toBe(false);
    expect(g.probeRan).toBeUndefined();
  });
});
