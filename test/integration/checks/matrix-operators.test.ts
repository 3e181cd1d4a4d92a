// The conformance check against stand-in operators written as integrators write them, in Node and in
// Python, each with one planted defect: every defect fails its own check (with the balance as
// evidence where the defect is about money), a correct operator passes everything, and money is
// judged only with evidence: with a balance probe no money rule is not observable, without one none
// of them passes.
import { describe, expect, it } from 'vitest';
import { useBalanceObserver } from '../../../src-main/core/desk/seams';
import type { Desk } from '../../../src-main/core/desk';
import type { CheckReport } from '../../../src-main/shared/model';
import { startWallet, WALLET_DEFECTS, type WalletDefect } from '../../fixtures/operators/node-wallet';
import { answerObserver, probeObserver } from '../../helpers/balance-observers';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk } from '../../helpers/desk';
import { startPythonWallet } from '../../helpers/python-wallet';
import { checkOf, idsWithOutcome } from '../../helpers/check-report';

const SECRET = 'wallet-shared-secret';
const USER = 'wallet-user-1';
const PREFIX = '/acme';

type Language = 'node' | 'python';

async function operator(language: Language, defect?: WalletDefect): Promise<string> {
  const options = { secret: SECRET, prefix: PREFIX, users: { [USER]: 1_000_000 }, ...(defect ? { defect } : {}) };
  const started = language === 'node' ? await startWallet(options) : await startPythonWallet(options);
  return closeAfterTest(started).url;
}

async function desk(): Promise<Desk> {
  const d = openDesk();
  const saved = await d.saveProfile({ name: 'acme', secret: SECRET, callbackPrefix: PREFIX });
  if (!saved.ok) throw new Error(saved.error.message);
  return d;
}

async function check(d: Desk, to: string): Promise<CheckReport> {
  const res = await d.runCheck({ to, userId: USER });
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

const byOutcome = idsWithOutcome;
const result = checkOf;
const explain = (r: CheckReport) =>
  JSON.stringify(
    r.checks.filter((c) => c.outcome !== 'pass').map((c) => ({ id: c.id, reason: c.reason, observed: c.observed })),
    null,
    1,
  );

/** The check that must fail for each planted defect, and whether its failure is measured in money. */
const OWN_CHECK: Record<(typeof WALLET_DEFECTS)[number], { id: string; money: boolean; headline: RegExp }> = {
  'results-unsigned': {
    id: 'signature.missing.WIN',
    money: false,
    headline: /^accepts unsigned results \(WIN\): a forged WIN would be credited; measured: a forged WIN was credited/,
  },
  'uppercase-hex': { id: 'signature.uppercase-hex.pay', money: false, headline: /^accepts a signature in uppercase hex on results \(WIN\)/ },
  'verifies-reserialized': { id: 'signature.over-compact-form.pay', money: false, headline: /re-serialization/ },
  'client-unsafe-error': { id: 'pay.refused.insufficient-balance', money: false, headline: /^refuses a pay in a way the client SDK never shows/ },
  'lose-credits-stake': { id: 'results.LOSE.valid.money', money: true, headline: /^a LOSE changes the balance: balance \d+ → \d+ \(\+100; the rule says 0\)/ },
  'refund-twice': { id: 'duplicate.sequential.REFUND.money', money: true, headline: /^processes a repeated REFUND again/ },
  'concurrent-pay-race': {
    id: 'duplicate.concurrent.pay.money',
    money: true,
    headline: /^concurrent duplicate pays are charged more than once: balance \d+ → \d+ \(-500; the rule says -100\)/,
  },
  'refund-body-amount': { id: 'results.REFUND.body-amount.money', money: true, headline: /^a REFUND credits the amount in its body, not the stored one/ },
};

// A whole run (every generated check, its clean-up refunds and balance readings) takes seconds; a loaded machine, many.
describe.each(['node', 'python'] as const)('the conformance check against a %s wallet', { timeout: 90_000 }, (language) => {
  it('passes every check of a correct operator, money included, with a balance probe', async () => {
    const url = await operator(language);
    const d = await desk();
    useBalanceObserver(d, probeObserver(url));
    const report = await check(d, url);
    expect(byOutcome(report, 'fail'), explain(report)).toEqual([]);
    expect(byOutcome(report, 'blocked'), explain(report)).toEqual([]);
    expect(byOutcome(report, 'not-observable'), explain(report)).toEqual([]);
    expect(report.passed).toBe(report.checks.length);
    expect(report.headline).toBeUndefined();
    expect(report.refusal).toBeUndefined();
    // The 404 USER_NOT_FOUND of a path that answered 200 is an answer, and "ignored unknown field" a warning.
    expect(result(report, 'long-user-id').actual.status).toBe(404);
    expect(result(report, 'unknown-extra-fields').evidence?.words ?? []).toEqual([]);
    const money = report.checks.filter((c) => c.id.endsWith('.money'));
    expect(money.length).toBeGreaterThan(40);
    for (const c of money) expect(c.evidence?.balanceBefore, c.id).toMatch(/^\d+$/);
  });

  it.each(WALLET_DEFECTS)('fails the check of a planted defect: %s', async (defect) => {
    const url = await operator(language, defect);
    const d = await desk();
    useBalanceObserver(d, probeObserver(url));
    const report = await check(d, url);
    const own = OWN_CHECK[defect];
    const failed = result(report, own.id);
    expect(failed.outcome, explain(report)).toBe('fail');
    if (own.money) {
      expect(failed.evidence?.balanceBefore).toMatch(/^\d+$/);
      expect(failed.evidence?.delta).not.toBe(failed.evidence?.expectedDelta);
    }
    expect(report.headline).toMatch(own.headline);
    // An operator that verifies a re-serialization refuses the correctly signed spaced bodies: the run says why.
    if (defect === 'verifies-reserialized') {
      expect(report.refusal?.finding, JSON.stringify(report.refusal)).toBe('reserialization');
      expect(report.refusal?.explanation).toMatch(/re-serialization of the body/);
    }
  });
});

describe('money without evidence, and with balances from the answers only', { timeout: 90_000 }, () => {
  it('reports every money rule not-observable (never passed) without an observer, saying what would make it observable', async () => {
    const url = await operator('node');
    const report = await check(await desk(), url);
    const money = report.checks.filter((c) => c.id.endsWith('.money'));
    expect(money.length).toBeGreaterThan(40);
    for (const c of money) {
      expect(c.outcome, c.id).toBe('not-observable');
      expect(c.pass).toBeNull();
      expect(c.howToObserve).toMatch(/--balance-url/);
    }
    expect(byOutcome(report, 'fail'), explain(report)).toEqual([]);
    expect(report.moneyObserved).toBe(false);
    expect(report.headline).toMatch(/^No check failed, but \d+ money rules are not observable/);
  });

  it('without an observer, a defect that is only about money is not passed either: it stays not-observable', async () => {
    const url = await operator('node', 'lose-credits-stake');
    const report = await check(await desk(), url);
    expect(result(report, 'results.LOSE.valid.money').outcome).toBe('not-observable');
    expect(result(report, 'results.LOSE.valid').outcome).toBe('pass');
  });

  it('judges money from the balance the answers carry when there is no probe', async () => {
    const url = await operator('node', 'lose-credits-stake');
    const d = await desk();
    useBalanceObserver(d, answerObserver());
    const report = await check(d, url);
    const lose = result(report, 'results.LOSE.valid.money');
    expect(lose.outcome, explain(report)).toBe('fail');
    expect(lose.evidence).toMatchObject({ balanceSource: 'answer', delta: '100', expectedDelta: '0' });
    // A pay answered with its balance after one answered with the balance before: judged from the answers.
    expect(result(report, 'results.WIN.valid.money').outcome).toBe('pass');
  });

  it('observes a user the probe does not know yet from its first reading', async () => {
    const wallet = closeAfterTest(await startWallet({ secret: SECRET, prefix: PREFIX, users: { [USER]: 1_000_000 } }));
    const d = await desk();
    const probe = probeObserver(wallet.url);
    let reads = 0;
    // The probe does not know the user until its wallet has been read a few times (a user created on
    // first contact): the run's first reading, the one before the first check, and the one before its pay.
    useBalanceObserver(d, {
      ...probe,
      read: async (userId) => (++reads <= 3 ? { kind: 'unavailable', reason: 'the probe answered 404 USER_NOT_FOUND' } : probe.read(userId)),
    });
    const report = await check(d, wallet.url);
    const first = result(report, 'pay.valid.money');
    expect(first.outcome).toBe('not-observable');
    expect(first.reason).toMatch(/404 USER_NOT_FOUND/);
    expect(result(report, 'results.WIN.valid.money').outcome).toBe('pass');
  });
});
