// The conformance check against operators written the way real ones are (integer minor units,
// VARCHAR(36) ids, callbacks under their own prefix): a correct one passes everything, each defect is
// caught by its own check, and nothing passes by accident (404 everywhere, every pay failing).
import { describe, expect, it } from 'vitest';
import { CONFORMANCE_CHECK_IDS } from '../../../src-main/core/checks';
import type { Desk } from '../../../src-main/core/desk';
import type { CheckReport } from '../../../src-main/shared/model';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk } from '../../helpers/desk';
import { startIntegerOperator, startNotFoundServer, type IntegerOperator, type IntegerOperatorDefects } from '../../helpers/integer-operator';

const SECRET = 'acme-shared-secret';
const USER = 'acme-user-1';

async function deskWithProfile(prefix = '/acme'): Promise<Desk> {
  const desk = openDesk();
  const saved = await desk.saveProfile({ name: 'acme', secret: SECRET, callbackPrefix: prefix });
  if (!saved.ok) throw new Error(saved.error.message);
  return desk;
}

async function check(desk: Desk, to: string, extra: { callbackPrefix?: string; stake?: number } = {}): Promise<CheckReport> {
  const res = await desk.runCheck({ to, userId: USER, ...extra });
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

const ids = (r: CheckReport, outcome: string) => r.checks.filter((c) => c.outcome === outcome).map((c) => c.id);

async function operator(defects: IntegerOperatorDefects = {}, prefix = '/acme'): Promise<IntegerOperator> {
  return closeAfterTest(await startIntegerOperator({ secret: SECRET, prefix, users: { [USER]: 100_000 }, defects }));
}

describe('conformance check against an operator with integer amounts, 36-character ids and its own prefix', () => {
  it('passes every check of a correct operator mounted at /acme, with integer stakes and ids of at most 36 characters', async () => {
    const op = await operator();
    const desk = await deskWithProfile();
    const report = await check(desk, op.url);
    expect(
      ids(report, 'fail'),
      JSON.stringify(
        report.checks.filter((c) => c.outcome !== 'pass'),
        null,
        1,
      ),
    ).toEqual([]);
    expect(ids(report, 'blocked')).toEqual([]);
    expect(report.passed).toBe(CONFORMANCE_CHECK_IDS.length);
    // Without balance evidence the money rules are not observable, and the headline says so.
    expect(report.headline).toMatch(/^No check failed, but \d+ money rules are not observable/);
    expect(report.callbackPrefix).toBe('/acme');
    // Everything went to the operator's own paths, with integer amounts and short ids.
    expect(op.requests.every((r) => r.path === '/acme/pay' || r.path === '/acme/results')).toBe(true);
    for (const r of op.requests) {
      const body = r.body === '' ? {} : (JSON.parse(r.body) as Record<string, unknown>);
      if (typeof body.amount === 'number') expect(Number.isInteger(body.amount)).toBe(true);
      for (const key of ['depositId', 'roomId'] as const) if (typeof body[key] === 'string') expect((body[key] as string).length).toBeLessThanOrEqual(36);
    }
    const paid = [...op.deposits.values()].map((d) => d.amount);
    expect(paid).toContain(100);
  });

  it('takes the stake and the prefix of one run from the options', async () => {
    const op = await operator({}, '/api/v2/acme');
    const desk = await deskWithProfile('/platform');
    const report = await check(desk, op.url, { callbackPrefix: '/api/v2/acme', stake: 250 });
    expect(report.failed).toBe(0);
    expect(report.blocked).toBe(0);
    expect([...op.deposits.values()].map((d) => d.amount)).toContain(250);
    const bad = await desk.runCheck({ to: op.url, userId: USER, stake: 1.5 });
    expect(!bad.ok && bad.error.code).toBe('bad-input');
    expect(!bad.ok && bad.error.message).toContain('integers in minor units');
  });

  const DEFECTS: Array<[keyof IntegerOperatorDefects, string]> = [
    ['acceptsAnySignature', 'signature.wrong-value.pay'],
    ['acceptsMissingSignature', 'signature.missing.pay'],
    ['reserializesBeforeVerifying', 'shape.spaced.pay'],
    ['unknownRefund500', 'results.REFUND.unknown-deposit'],
    ['duplicatePay409', 'duplicate.sequential.pay'],
    ['duplicateResults409', 'duplicate.sequential.WIN'],
    ['winIgnored', 'results.WIN.valid'],
    ['loseNeedsAmount', 'results.LOSE.valid'],
    ['refundNeedsRoom', 'shape.null-room-game.REFUND'],
    ['rejectsTournament', 'shape.tournament.pay'],
    ['stringIsClientSafe', 'pay.refused.insufficient-balance'],
  ];

  it.each(DEFECTS)('catches the defect %s with the check %s', async (defect, caughtBy) => {
    const op = await operator({ [defect]: true });
    const desk = await deskWithProfile();
    const report = await check(desk, op.url);
    expect(ids(report, 'fail')).toContain(caughtBy);
    // One defect never fails the valid pay the rest of the run stands on.
    expect(ids(report, 'fail')).not.toContain('pay.valid');
    // A check built on the failed one is blocked, never passed.
    if (defect === 'winIgnored')
      expect(ids(report, 'blocked')).toEqual(expect.arrayContaining(['signature.missing.WIN', 'duplicate.sequential.WIN', 'shape.spaced.WIN']));
  });

  it('quotes the words of a 2XX that says the WIN was ignored', async () => {
    const op = await operator({ winIgnored: true });
    const desk = await deskWithProfile();
    const report = await check(desk, op.url);
    const win = report.checks.find((c) => c.id === 'results.WIN.valid')!;
    expect(win).toMatchObject({ pass: false, outcome: 'fail', actual: { status: 200, body: 'Deposit ignored' } });
    expect(win.reason).toContain('"Deposit ignored"');
    expect(win.evidence?.words).toEqual(['Deposit ignored']);
  });

  it('passes nothing against a URL that answers 404 to everything, and says why at the top', async () => {
    const notFound = closeAfterTest(await startNotFoundServer());
    const desk = await deskWithProfile();
    const report = await check(desk, notFound.url);
    expect(report.passed).toBe(0);
    expect(report.checks.filter((c) => c.pass === true)).toEqual([]);
    expect(report.headline).toBe('The target does not serve /acme/pay: the first valid pay answered 404. Wrong URL or callback prefix?');
    expect(report.checks.find((c) => c.id === 'signature.wrong-value.pay')?.outcome).toBe('blocked');
    expect(report.checks.find((c) => c.id === 'pay.valid')?.reason).toContain('does not serve /acme/pay');
  });

  it('says the same when the profile has the wrong prefix', async () => {
    const op = await operator();
    const desk = await deskWithProfile('/platform');
    const report = await check(desk, op.url);
    expect(report.passed).toBe(0);
    expect(report.headline).toContain('/platform/pay');
  });

  it('blocks the checks that depend on a pay when every pay fails', async () => {
    const op = await operator({ allPays500: true });
    const desk = await deskWithProfile();
    const report = await check(desk, op.url);
    expect(ids(report, 'pass')).toEqual(expect.arrayContaining(['results.REFUND.unknown-deposit']));
    expect(ids(report, 'pass').every((id) => !id.startsWith('signature.') && !id.startsWith('shape.') && !id.startsWith('duplicate.'))).toBe(true);
    expect(ids(report, 'fail')).toContain('pay.valid');
    const win = report.checks.find((c) => c.id === 'results.WIN.valid')!;
    expect(win.pass).toBe(false);
    expect(win.outcome).toBe('blocked');
    expect(win.blockedBy).toMatchObject({ step: 'pay before it' });
    expect(win.blockedBy?.answer).toContain('500');
    const unsigned = report.checks.find((c) => c.id === 'signature.missing.pay')!;
    expect(unsigned.blockedBy).toMatchObject({ step: 'pay.valid' });
  });
});

describe('edge cases against the same operators', () => {
  const run = async (desk: Desk, id: string, to: string) => {
    const res = await desk.runEdgeCase(id, { to, userId: USER });
    if (!res.ok) throw new Error(res.error.message);
    return res.value;
  };

  it('passes every judged case of a correct operator, with ids of at most 36 characters', async () => {
    const op = await operator();
    const desk = await deskWithProfile();
    const cases = await desk.listEdgeCases();
    if (!cases.ok) throw new Error(cases.error.message);
    for (const c of cases.value) {
      const result = await run(desk, c.id, op.url);
      // Without balance evidence a money rule is not observable: its case is never a pass.
      expect(result.outcome ?? 'not-judged', `${c.id}: ${result.summary}`).toBe(
        !c.checkable ? 'not-judged' : result.checks?.some((r) => r.id.endsWith('.money')) ? 'not-observable' : 'pass',
      );
    }
    for (const r of op.requests) {
      const body = r.body === '' ? {} : (JSON.parse(r.body) as Record<string, unknown>);
      for (const key of ['depositId', 'roomId'] as const) if (typeof body[key] === 'string') expect((body[key] as string).length).toBeLessThanOrEqual(36);
    }
    // "Not judged" only where neither the spec nor the desk says what the answer should be.
    expect(cases.value.filter((c) => !c.checkable).map((c) => c.id)).toEqual(['unknown-game-id']);
  });

  it('warns, never fails, on the amount case of an operator that accepts a pay of 0 and of -5: the spec does not bound amounts', async () => {
    const op = await operator({ acceptsNonPositive: true });
    const desk = await deskWithProfile();
    const result = await run(desk, 'amount-edge-values', op.url);
    expect(result).toMatchObject({ pass: null, outcome: 'warning' });
    expect(result.checks?.[0]?.rule).toMatchObject({ source: 'advice' });
    expect(result.summary).toContain('pay of 0: answered 200: the operator accepted what it should refuse');
  });

  it('blocks a case whose pay fails, and passes nothing against a URL that answers 404', async () => {
    const failing = await operator({ allPays500: true });
    const desk = await deskWithProfile();
    const blocked = await run(desk, 'results.REFUND.valid', failing.url);
    expect(blocked).toMatchObject({ pass: false, outcome: 'blocked' });
    expect(blocked.summary).toContain('depends on "pay before it"');

    const notFound = closeAfterTest(await startNotFoundServer());
    for (const id of ['signature.missing.pay', 'signature.wrong-value.pay', 'empty-body', 'results.REFUND.unknown-deposit', 'wrong-content-type']) {
      const result = await run(desk, id, notFound.url);
      expect(result.pass, id).toBe(false);
      expect(result.summary).toContain('does not serve /acme/');
    }
  });
});
