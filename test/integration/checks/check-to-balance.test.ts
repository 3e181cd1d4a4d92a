// Money from the server under test: a profile's balance probe reads its own operator only. A run sent
// elsewhere (`to` another URL) never reads it: its money comes from a balance URL given for the run,
// or it is not observable, and the report names the source. Two real wallets: the profile's and the
// target, which credits a LOSE (the defect the probe of the wrong server would hide).
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../../../src-main/shared/model';
import { startWallet, type Wallet } from '../../fixtures/operators/node-wallet';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk } from '../../helpers/desk';

const SECRET = 'to-balance-secret';
const USER = 'to-user-1';
const PREFIX = '/acme';

/** A wallet that counts every read of the user's balance: by its balance endpoint and by its callbacks. */
async function countedWallet(defect?: 'lose-credits-stake'): Promise<Wallet & { balanceReads: () => number }> {
  const w = closeAfterTest(await startWallet({ secret: SECRET, prefix: PREFIX, users: { [USER]: 100_000 }, ...(defect ? { defect } : {}) }));
  const before = w.balances.get(USER);
  let reads = 0;
  // Both the balance endpoint and the callbacks read the map: a wrapped getter counts them all.
  const original = w.balances.get.bind(w.balances);
  w.balances.get = (key: string) => {
    if (key === USER) reads++;
    return original(key);
  };
  expect(before).toBe(100_000);
  return Object.assign(w, { balanceReads: () => reads });
}

async function run(profileWallet: Wallet, options: { to: string; balanceUrl?: string }): Promise<CheckReport> {
  const d = openDesk();
  const saved = await d.saveProfile({
    name: 'acme',
    secret: SECRET,
    callbackPrefix: PREFIX,
    operatorUrl: profileWallet.url,
    balanceUrl: `${profileWallet.url}/test/balance/{userId}`,
    balancePath: '$.balance',
  });
  if (!saved.ok) throw new Error(saved.error.message);
  const res = await d.runCheck({ userId: USER, ...options });
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

describe('check --to another server than the profile operator', { timeout: 120_000 }, () => {
  it("never reads the profile's probe: without a balance URL for the run, money is not observable and the report says so", async () => {
    const mine = await countedWallet();
    const target = await countedWallet('lose-credits-stake');
    const readsBefore = mine.balanceReads();
    const report = await run(mine, { to: target.url });
    // The profile's wallet saw no request at all: neither a callback nor a balance read.
    expect(mine.balanceReads()).toBe(readsBefore);
    expect(mine.balances.get(USER)).toBe(100_000);
    expect(report.target).toBe(target.url);
    expect(report.moneySource).toMatch(/^none: give the run the target's balance endpoint: check --balance-url URL/);
    expect(report.checks.filter((c) => c.id.endsWith('.money')).every((c) => c.outcome !== 'fail')).toBe(true);
    expect(report.checks.find((c) => c.id === 'results.LOSE.valid.money')?.outcome).toBe('not-observable');
  });

  it("reads the target's own balance URL given for the run, and catches the target's LOSE that credits", async () => {
    const mine = await countedWallet();
    const target = await countedWallet('lose-credits-stake');
    const report = await run(mine, { to: target.url, balanceUrl: `${target.url}/test/balance/{userId}` });
    expect(mine.balances.get(USER)).toBe(100_000);
    expect(report.moneySource).toBe(`balance probe ${target.url}/test/balance/{userId}`);
    const lose = report.checks.find((c) => c.id === 'results.LOSE.valid.money');
    expect(lose?.outcome).toBe('fail');
    expect(lose?.evidence).toMatchObject({ balanceSource: 'probe', delta: '100', expectedDelta: '0' });
    expect(report.checks.filter((c) => c.outcome === 'fail').every((c) => c.id.includes('LOSE'))).toBe(true);
  });

  it("uses the profile's probe when the run goes to the profile's own operator", async () => {
    const mine = await countedWallet();
    const report = await run(mine, { to: `${mine.url}/` });
    expect(report.moneySource).toBe(`balance probe ${mine.url}/test/balance/{userId}`);
    expect(report.checks.filter((c) => c.outcome === 'not-observable')).toEqual([]);
  });
});
