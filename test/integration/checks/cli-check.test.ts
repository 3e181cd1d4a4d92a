import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { runCli } from '../../helpers/cli';
import { startIntegerOperator, startNotFoundServer } from '../../helpers/integer-operator';
import { startOperator, type OperatorDefects, type StandInOperator } from '../../helpers/operator';
import { tempDir } from '../../helpers/temp';
import { closeAfterTest } from '../../helpers/closing';
import { CONFORMANCE_CHECK_IDS } from '../../../src-main/core/checks';
import { startWallet } from '../../fixtures/operators/node-wallet';

const SECRET = 'cli-check-secret';
let operator: StandInOperator | undefined;

async function operatorAndHome(defects: OperatorDefects = {}, profileSecret: string | null = SECRET) {
  operator = closeAfterTest(await startOperator({ secret: SECRET, defects }));
  const dir = tempDir();
  const desk = createDesk({ home: dir });
  await desk.saveProfile({ name: 'p', secret: profileSecret });
  await desk.close();
  return { dir, url: operator.url };
}

// Each test runs the whole matrix once or more in a CLI process: minutes on a loaded machine.
describe('wager-desk check', { timeout: 180_000 }, () => {
  it('prints {passed, failed, checks} with --json, and exits 3 when nothing failed but money was not observable', async () => {
    const { dir, url } = await operatorAndHome();
    const res = await runCli(['--home', dir, 'check', '--to', url, '--user-id', 'cli-user', '--json', '--concurrency', '3']);
    expect(res.code).toBe(3);
    const out = JSON.parse(res.stdout) as {
      passed: number;
      failed: number;
      blocked: number;
      checks: Array<{
        id: string;
        title: string;
        pass: boolean | null;
        outcome: string;
        expected: string;
        actual: { status: number | null; body: string | null };
      }>;
    };
    expect(out.failed).toBe(0);
    expect(out.blocked).toBe(0);
    expect(out.passed).toBe(CONFORMANCE_CHECK_IDS.length);
    expect(out).toMatchObject({ moneyObserved: false, concurrency: 3 });
    const pay = out.checks.find((c) => c.id === 'pay.valid')!;
    expect(pay).toMatchObject({
      pass: true,
      outcome: 'pass',
      rule: { section: '4.1' },
      expected: 'status 2XX, with a body that does not say the request was ignored',
      actual: { status: 200, body: '{"ok":true}' },
      evidence: { statuses: [200] },
    });
    const money = out.checks.find((c) => c.id === 'duplicate.concurrent.pay.money')!;
    expect(money).toMatchObject({ outcome: 'not-observable', pass: null, rule: { section: '3' } });
    expect((money as { sent?: string[] }).sent?.[0]).toContain('×3 at once');
    expect((money as { howToObserve?: string }).howToObserve).toContain('--balance-url');
    expect(out.checks.filter((c) => c.pass === null).every((c) => c.outcome === 'not-observable')).toBe(true);
    expect(typeof pay.title).toBe('string');
    expect(out.checks.filter((c) => c.pass === null).length).toBeGreaterThan(0);
  });

  it('prints one line per check and exits 1 when one fails', async () => {
    const { dir, url } = await operatorAndHome({ unknownRefund500: true });
    const res = await runCli(['--home', dir, 'check', '--to', url, '--user-id', 'cli-user']);
    expect(res.code).toBe(1);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toContain('PASS pay.valid  A valid pay is accepted');
    expect(lines.find((l) => l.startsWith('FAIL results.REFUND.unknown-deposit  '))).toMatch(/: expected status 200, got 500 /);
    expect(lines.filter((l) => l.startsWith('FAIL '))).toHaveLength(1);
    expect(lines.some((l) => l.startsWith('N/A duplicate.sequential.pay.money  The same pay again changes nothing: not observable'))).toBe(true);
    expect(lines[lines.length - 2]).toMatch(/^does not answer 200 to a REFUND of an unknown deposit/);
  });

  it('signs with --secret-env and exits 2 without any secret', async () => {
    const { dir, url } = await operatorAndHome({}, null);
    const none = await runCli(['--home', dir, 'check', '--to', url, '--user-id', 'u']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No signing secret');
    expect(operator!.requests).toHaveLength(0);
    const env = await runCli(['--home', dir, 'check', '--to', url, '--user-id', 'u', '--secret-env', 'WD_CHECK_SECRET', '--json'], {
      env: { WD_CHECK_SECRET: SECRET },
    });
    expect(env.code).toBe(3);
    expect(JSON.parse(env.stdout).failed).toBe(0);
    const usage = await runCli(['--home', dir, 'check', '--to', url]);
    expect(usage.code).toBe(2);
  });

  it('posts to --callback-prefix with --stake, and exits 1 with the reason on top when the target serves nothing', async () => {
    const op = closeAfterTest(await startIntegerOperator({ secret: SECRET, prefix: '/api/v2/acme', users: { 'cli-user': 100_000 } }));
    const dir = tempDir();
    const desk = createDesk({ home: dir });
    await desk.saveProfile({ name: 'p', secret: SECRET });
    await desk.close();
    const ok = await runCli(['--home', dir, 'check', '--to', op.url, '--user-id', 'cli-user', '--callback-prefix', '/api/v2/acme', '--stake', '250', '--json']);
    expect(ok.code, ok.stderr).toBe(3);
    expect(JSON.parse(ok.stdout)).toMatchObject({ failed: 0, blocked: 0, passed: CONFORMANCE_CHECK_IDS.length, callbackPrefix: '/api/v2/acme' });
    expect(op.requests.every((r) => r.path.startsWith('/api/v2/acme/'))).toBe(true);
    expect([...op.deposits.values()].map((d) => d.amount)).toContain(250);

    const badPrefix = await runCli(['--home', dir, 'check', '--to', op.url, '--user-id', 'cli-user', '--callback-prefix', 'acme/']);
    expect(badPrefix.code).toBe(2);
    const badStake = await runCli(['--home', dir, 'check', '--to', op.url, '--user-id', 'cli-user', '--stake', '1.5']);
    expect(badStake.code).toBe(2);
    expect(badStake.stderr).toContain('integers in minor units');

    const notFound = closeAfterTest(await startNotFoundServer());
    const lost = await runCli(['--home', dir, 'check', '--to', notFound.url, '--user-id', 'cli-user']);
    expect(lost.code).toBe(1);
    const lines = lost.stdout.trim().split('\n');
    expect(lines[0]).toBe('The target does not serve /platform/pay: the first valid pay answered 404. Wrong URL or callback prefix?');
    expect(lines.filter((l) => l.startsWith('PASS '))).toEqual([]);
    expect(lines.some((l) => l.startsWith('BLOCKED signature.wrong-value.pay  '))).toBe(true);
    expect(lines[lines.length - 1]).toMatch(/^0 passed, \d+ failed, \d+ blocked, \d+ not observable; report \d+, ids wd-[0-9a-f]{16}\*$/);
  });

  it('names the worst finding of an operator whose results route checks no signature, and exits 1', async () => {
    const wallet = closeAfterTest(await startWallet({ secret: SECRET, prefix: '/platform', users: { 'cli-user': 1_000_000 }, defect: 'results-unsigned' }));
    const { dir } = await operatorAndHome();
    const res = await runCli(['--home', dir, 'check', '--to', wallet.url, '--user-id', 'cli-user']);
    expect(res.code).toBe(1);
    const lines = res.stdout.trim().split('\n');
    expect(lines[lines.length - 2]).toMatch(/^accepts unsigned results \(WIN\): a forged WIN would be credited \(\d+ more failed\)$/);
    expect(lines.find((l) => l.startsWith('FAIL signature.missing.WIN  '))).toMatch(
      /^FAIL signature\.missing\.WIN {2}A WIN without a signature header is refused: expected status 4XX, got 200 \{"status":"ok","balance":\d+\} \[WIN without a signature header: answered 200: the operator accepted what it should refuse\]$/,
    );
  });

  it('writes --junit and --html before exiting 1, with the counts of its own summary', async () => {
    const { dir, url } = await operatorAndHome({ unknownRefund500: true });
    const out = tempDir();
    const junit = join(out, 'check.junit.xml');
    const html = join(out, 'check.html');
    const res = await runCli(['--home', dir, 'check', '--to', url, '--user-id', 'cli-files', '--json', '--junit', junit, '--html', html]);
    expect(res.code).toBe(1);
    const summary = JSON.parse(res.stdout) as { passed: number; failed: number; blocked: number; notObservable: number; checks: unknown[] };
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain(`tests="${summary.checks.length}" failures="${summary.failed}" errors="0" skipped="${summary.blocked + summary.notObservable}"`);
    expect(xml).toContain('<failure type="fail" message="REFUND of an unknown deposit: 500');
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('data-check-id="results.REFUND.unknown-deposit" data-outcome="fail"');
    expect(page).not.toContain(SECRET);
  });

  it('refuses a --junit file in a folder that does not exist before sending anything (exit 2)', async () => {
    const { dir, url } = await operatorAndHome();
    const missing = join(tempDir(), 'no-such-folder', 'check.xml');
    const res = await runCli(['--home', dir, 'check', '--to', url, '--user-id', 'u', '--junit', missing]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`--junit ${missing}: the folder`);
    expect(operator!.requests).toHaveLength(0);
    expect(existsSync(missing)).toBe(false);
  });
});
