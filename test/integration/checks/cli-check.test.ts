import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { runCli } from '../../helpers/cli';
import { startOperator, type OperatorDefects, type StandInOperator } from '../../helpers/operator';
import { tempDir } from '../../helpers/temp';
import { closeAfterTest } from '../../helpers/closing';

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

describe('wager-desk check', () => {
  it('prints {passed, failed, checks} with --json and exits 0 when every check passes', async () => {
    const { dir, url } = await operatorAndHome();
    const res = await runCli(['--home', dir, 'check', '--to', url, '--user-id', 'cli-user', '--json']);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as { passed: number; failed: number; checks: Array<{ id: string; title: string; pass: boolean | null; expected: string; actual: { status: number | null; body: string | null } }> };
    expect(out.failed).toBe(0);
    expect(out.passed).toBe(13);
    const pay = out.checks.find((c) => c.id === 'pay-accepted')!;
    expect(pay).toMatchObject({ pass: true, expected: 'status 2XX', actual: { status: 200, body: '{"ok":true}' } });
    expect(typeof pay.title).toBe('string');
    expect(out.checks.filter((c) => c.pass === null).length).toBeGreaterThan(0);
  });

  it('prints one line per check and exits 1 when one fails', async () => {
    const { dir, url } = await operatorAndHome({ unknownRefund500: true });
    const res = await runCli(['--home', dir, 'check', '--to', url, '--user-id', 'cli-user']);
    expect(res.code).toBe(1);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toContain('PASS pay-accepted  A valid pay is accepted');
    expect(lines.find((l) => l.startsWith('FAIL refund-unknown-deposit  '))).toMatch(/: expected status 200, got 500 /);
    expect(lines.filter((l) => l.startsWith('FAIL '))).toHaveLength(1);
    expect(lines.some((l) => l.startsWith('N/A pay-duplicate-charged-once  A duplicate pay was not charged twice'))).toBe(true);
  });

  it('signs with --secret-env and exits 2 without any secret', async () => {
    const { dir, url } = await operatorAndHome({}, null);
    const none = await runCli(['--home', dir, 'check', '--to', url, '--user-id', 'u']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No signing secret');
    expect(operator!.requests).toHaveLength(0);
    const env = await runCli(['--home', dir, 'check', '--to', url, '--user-id', 'u', '--secret-env', 'WD_CHECK_SECRET', '--json'], { env: { WD_CHECK_SECRET: SECRET } });
    expect(env.code).toBe(0);
    expect(JSON.parse(env.stdout).failed).toBe(0);
    const usage = await runCli(['--home', dir, 'check', '--to', url]);
    expect(usage.code).toBe(2);
  });
});
