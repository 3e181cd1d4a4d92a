// `wager-desk edge-cases run` against a stand-in operator: one line per case, the summary counted like
// check's, and the exit code that says whether anything failed or is blocked.
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { runCli } from '../../helpers/cli';
import { closeAfterTest } from '../../helpers/closing';
import { startOperator, type OperatorDefects } from '../../helpers/operator';
import { tempDir } from '../../helpers/temp';

const SECRET = 'cli-edge-secret';

async function homeWithOperator(defects: OperatorDefects = {}) {
  const operator = closeAfterTest(await startOperator({ secret: SECRET, defects }));
  const home = tempDir();
  const desk = createDesk({ home });
  await desk.saveProfile({ name: 'p', secret: SECRET, operatorUrl: operator.url });
  await desk.close();
  return { home, operator };
}

describe('wager-desk edge-cases run', { timeout: 180_000 }, () => {
  it('--only runs just those cases; --json gives the counts and each run; exit 0 when none failed and all was observed', async () => {
    const { home, operator } = await homeWithOperator();
    const res = await runCli(['--home', home, 'edge-cases', 'run', '--only', 'long-user-id,wrong-content-type', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as {
      passed: number;
      failed: number;
      blocked: number;
      notJudged: number;
      cases: Array<{ caseId: string; pass: boolean | null }>;
    };
    expect(out.cases.map((c) => c.caseId)).toEqual(['long-user-id', 'wrong-content-type']);
    expect(out.passed).toBe(2);
    expect(out.failed).toBe(0);
    expect(out.blocked).toBe(0);
    // Two pays, each accepted and then refunded by the clean-up that returns what a case left open.
    expect(operator.requests.map((r) => r.path)).toEqual(['/platform/pay', '/platform/results', '/platform/pay', '/platform/results']);

    // A case with a money rule and no balance evidence is not observable: exit 3, never a pass.
    const money = await runCli(['--home', home, 'edge-cases', 'run', '--only', 'duplicate.concurrent.pay', '--concurrency', '4', '--json']);
    expect(money.code, money.stderr).toBe(3);
    expect(JSON.parse(money.stdout)).toMatchObject({
      passed: 0,
      notObservable: 1,
      cases: [{ caseId: 'duplicate.concurrent.pay', pass: null, outcome: 'not-observable' }],
    });
    // The four copies of one pay, then the REFUND that returns its stake.
    expect(operator.requests.length).toBe(9);
  });

  it('prints a line per case and the summary, and exits 1 when a case failed', async () => {
    const { home } = await homeWithOperator({ unknownRefund500: true });
    const res = await runCli(['--home', home, 'edge-cases', 'run']);
    expect(res.code).toBe(1);
    const lines = res.stdout.trim().split('\n');
    expect(lines.find((l) => l.startsWith('FAIL results.REFUND.unknown-deposit  '))).toBeDefined();
    expect(lines.at(-1)).toMatch(/^\d+ passed, 1 failed, 0 blocked, \d+ not observable, 1 not judged$/);
    const listed = await runCli(['--home', home, 'edge-cases', 'list', '--json']);
    expect(lines.length - 1).toBe((JSON.parse(listed.stdout) as unknown[]).length);
  });

  it('refuses an unknown case id with exit 2', async () => {
    const { home, operator } = await homeWithOperator();
    const res = await runCli(['--home', home, 'edge-cases', 'run', '--only', 'no-such-case']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('unknown case no-such-case');
    expect(operator.requests).toHaveLength(0);
  });
});
