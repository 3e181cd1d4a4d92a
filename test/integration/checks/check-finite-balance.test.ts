// The check owns its test user's state: against operators whose test user holds a finite balance (1,000
// minor units, as a staging account does), it plans its spending, refunds what it leaves open, confirms
// every refusal with a plain control before naming a cause, and blocks (never fails) what the balance
// cannot pay for. A correct operator, with or without balance evidence, and the desk's own sandbox
// with a fresh user get no failure and no word of re-serialization; each planted defect fails a check
// whose own words name it.
import { describe, expect, it } from 'vitest';
import { useBalanceObserver } from '../../../src-main/core/desk/seams';
import type { Desk } from '../../../src-main/core/desk';
import type { CheckReport } from '../../../src-main/shared/model';
import { startWallet, type Wallet, type WalletOptions } from '../../fixtures/operators/node-wallet';
import { answerObserver, probeObserver } from '../../helpers/balance-observers';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk } from '../../helpers/desk';
import { checkOf, idsWithOutcome } from '../../helpers/check-report';

const SECRET = 'finite-balance-secret';
const USER = 'finite-user-1';
const PREFIX = '/acme';

async function wallet(balance: number, extra: Partial<WalletOptions> = {}): Promise<Wallet> {
  return closeAfterTest(await startWallet({ secret: SECRET, prefix: PREFIX, users: { [USER]: balance }, insufficientStatus: 402, ...extra }));
}

async function desk(): Promise<Desk> {
  const d = openDesk();
  const saved = await d.saveProfile({ name: 'acme', secret: SECRET, callbackPrefix: PREFIX });
  if (!saved.ok) throw new Error(saved.error.message);
  return d;
}

async function check(d: Desk, to: string, userId = USER): Promise<CheckReport> {
  const res = await d.runCheck({ to, userId });
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

const ids = idsWithOutcome;
const result = checkOf;
const explain = (r: CheckReport) =>
  JSON.stringify(
    r.checks.filter((c) => c.outcome !== 'pass' && c.outcome !== 'not-observable').map((c) => ({ id: c.id, outcome: c.outcome, reason: c.reason })),
    null,
    1,
  );
/** Every word of a report a person reads: a correct operator's must not blame re-serialization. */
const words = (r: CheckReport): string => [r.headline ?? '', ...r.checks.map((c) => `${c.reason ?? ''} ${c.observed ?? ''}`)].join('\n');

function expectClean(report: CheckReport): void {
  expect(ids(report, 'fail'), explain(report)).toEqual([]);
  expect(ids(report, 'blocked'), explain(report)).toEqual([]);
  expect(ids(report, 'inconclusive'), explain(report)).toEqual([]);
  expect(words(report)).not.toMatch(/re-serializ/);
  expect(report.refusal).toBeUndefined();
}

describe('a correct operator whose test user has 1,000 minor units', { timeout: 120_000 }, () => {
  it('with a balance probe: plans within the balance, fails nothing, and leaves the user with money', async () => {
    const op = await wallet(1000);
    const d = await desk();
    useBalanceObserver(d, probeObserver(op.url));
    const report = await check(d, op.url);
    expectClean(report);
    expect(ids(report, 'not-observable')).toEqual([]);
    const [, needs] = /^this run needs at most ([\d.]+); the user has 1000/.exec(report.budget ?? '') ?? [];
    expect(Number(needs), report.budget).toBeLessThanOrEqual(1000);
    // Every pay left open was refunded: what the run cost is what its LOSEs took.
    expect(op.balances.get(USER)!).toBeGreaterThanOrEqual(1000 - Number(needs));
    expect(report.moneySource).toBe('the test probe is configured');
  });

  it('without any balance evidence: fails nothing, blocks nothing', async () => {
    const op = await wallet(1000);
    const report = await check(await desk(), op.url);
    expectClean(report);
    expect(report.budget).toMatch(/^this run needs at most [\d.]+; the user's balance is not known before the run$/);
    expect(report.moneySource).toMatch(/^none: /);
  });

  it('with balances from the answers only: fails nothing, blocks nothing', async () => {
    const op = await wallet(1000);
    const d = await desk();
    useBalanceObserver(d, answerObserver());
    expectClean(await check(d, op.url));
  });

  it('with a user of 150 and a probe: shrinks the stake so the whole run fits', async () => {
    const op = await wallet(150);
    const d = await desk();
    useBalanceObserver(d, probeObserver(op.url));
    const report = await check(d, op.url);
    expectClean(report);
    expect(report.budget).toMatch(/^this run needs at most [\d.]+; the user has 150 \(so every pay is \d+, not 100\)$/);
  });

  it('with a user of 150 and no evidence: what the balance cannot pay for is blocked or inconclusive, never failed', async () => {
    const op = await wallet(150);
    const report = await check(await desk(), op.url);
    expect(ids(report, 'fail'), explain(report)).toEqual([]);
    expect(words(report)).not.toMatch(/re-serializ/);
    const notPaid = report.checks.filter((c) => c.outcome === 'blocked' || c.outcome === 'inconclusive');
    expect(notPaid.length, explain(report)).toBeGreaterThan(0);
    for (const c of notPaid) expect(c.reason, c.id).toMatch(/INSUFFICIENT_BALANCE|balance ran out|could not see whether the balance covered/);
  });
});

describe("the desk's own sandbox with a fresh user (the default starting balance)", { timeout: 120_000 }, () => {
  it('fails nothing and blocks nothing', async () => {
    const d = await desk();
    const started = await d.startProxy({ port: 0, upstream: null });
    if (!started.ok) throw new Error(started.error.message);
    const report = await check(d, started.value.proxy.url!, 'fresh-sandbox-user');
    expectClean(report);
  });
});

describe('each planted defect fails a check whose own words name it, against a user of 1,000', { timeout: 120_000 }, () => {
  it('a refused pay that still deducts', async () => {
    const op = await wallet(1000, { defect: 'refused-pay-deducts' });
    const d = await desk();
    useBalanceObserver(d, probeObserver(op.url));
    const report = await check(d, op.url);
    expect(ids(report, 'fail'), explain(report)).toEqual(['pay.refused.insufficient-balance.money']);
    expect(report.headline).toMatch(/^a refused pay still changes the balance: balance \d+ → -\d+/);
    expect(words(report)).not.toMatch(/re-serializ/);
  });

  it('a LOSE left unsettled, whose later REFUND returns the stake', async () => {
    const op = await wallet(1000, { defect: 'lose-unsettled' });
    const d = await desk();
    useBalanceObserver(d, probeObserver(op.url));
    const report = await check(d, op.url);
    const refund = result(report, 'ordering.REFUND-after-LOSE.money');
    expect(refund.outcome, explain(report)).toBe('fail');
    expect(refund.evidence).toMatchObject({ delta: '100', expectedDelta: '0' });
    expect(report.headline).toMatch(/processes a (REFUND|WIN|DRAW) for a deposit already settled by a LOSE/);
  });

  it('pay idempotency keyed on the user: the second open deposit is answered as the first', async () => {
    const op = await wallet(1000, { defect: 'idempotency-by-user' });
    const d = await desk();
    useBalanceObserver(d, probeObserver(op.url));
    const report = await check(d, op.url);
    const second = result(report, 'ordering.two-open-deposits.pay');
    expect(second.outcome, explain(report)).toBe('fail');
    expect(second.reason).toMatch(/naming depositId wd-[0-9a-f]+, another deposit than the one sent/);
    expect(result(report, 'ordering.two-open-deposits.pay.money').outcome).toBe('fail');
    expect(report.headline).toMatch(/^keys a pay's idempotency on the user, not the depositId/);
    expect(words(report)).not.toMatch(/re-serializ/);
  });

  it('a LOSE that credits the stake', async () => {
    const op = await wallet(1000, { defect: 'lose-credits-stake' });
    const d = await desk();
    useBalanceObserver(d, probeObserver(op.url));
    const report = await check(d, op.url);
    expect(result(report, 'results.LOSE.valid.money').outcome, explain(report)).toBe('fail');
    expect(report.headline).toMatch(/^a LOSE changes the balance/);
  });

  it('verifying a re-serialization is still named as such, each refusal confirmed by its accepted plain control', async () => {
    const op = await wallet(1000, { defect: 'verifies-reserialized' });
    const report = await check(await desk(), op.url);
    const spaced = result(report, 'shape.spaced.pay');
    expect(spaced.outcome, explain(report)).toBe('fail');
    expect(spaced.reason).toMatch(/its control \(control: a plain pay, fresh ids\) was accepted: 200/);
    expect(report.headline).toMatch(/re-serialization/);
    expect(ids(report, 'inconclusive')).toEqual([]);
  });
});
