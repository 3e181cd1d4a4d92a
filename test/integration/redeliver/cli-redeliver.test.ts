// `wager-desk redeliver` through the real CLI: --dry-run sends nothing, --json is the report, exit 0
// only when every send got a 2XX, and a production profile needs --confirm-production.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { capture } from '../../helpers/captures';
import { cliCommand, runCli } from '../../helpers/cli';
import { closeAfterTest } from '../../helpers/closing';
import { startOperator, type StandInOperator } from '../../helpers/operator';
import { tempDir } from '../../helpers/temp';

const SECRET = 'cli-redeliver-secret';
const pay = (dep: string) => JSON.stringify({ userId: 'cli-user', depositId: dep, currency: 'USD', amount: 4 });

/** A data directory whose profile points at a fresh operator, with failed captures d-1..d-n (and one with a wrong signature). */
async function home(n: number, production = false): Promise<{ dir: string; ids: number[]; operator: StandInOperator }> {
  const operator = closeAfterTest(await startOperator({ secret: SECRET }));
  const dir = tempDir();
  const desk = createDesk({ home: dir });
  try {
    await desk.saveProfile({ name: 'staging', secret: SECRET, operatorUrl: operator.url, production });
    const ids: number[] = [];
    for (let i = 0; i < n; i++) ids.push(await capture(desk, { body: pay(`d-${i + 1}`), signature: { secret: SECRET }, error: 'connect ECONNREFUSED' }));
    return { dir, ids, operator };
  } finally {
    await desk.close();
  }
}

describe('wager-desk redeliver', () => {
  it('lists with --dry-run, sends with --json, and a second run sends nothing', async () => {
    const { dir, ids, operator } = await home(3);
    const dry = await runCli(['--home', dir, 'redeliver', '--failed', '--dry-run']);
    expect(dry.code).toBe(0);
    const lines = dry.stdout.trim().split('\n');
    expect(lines[0]).toBe('would send 3 captures (skipped 0 already redelivered)');
    expect(lines[1]).toMatch(/^ +id  at /);
    expect(lines.slice(2).map((l) => Number(l.trim().split(/\s+/)[0]))).toEqual(ids);
    const dryJson = JSON.parse((await runCli(['--home', dir, 'redeliver', '--ids', `${ids[1]}-${ids[2]}`, '--dry-run', '--json'])).stdout) as {
      count: number;
      captures: Array<{ id: number }>;
    };
    expect(dryJson.count).toBe(2);
    expect(dryJson.captures.map((x) => x.id)).toEqual([ids[1], ids[2]]);
    expect(operator.requests).toHaveLength(0);

    const run = await runCli(['--home', dir, 'redeliver', '--failed', '--rate', '1000', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ selected: 3, sent: 3, ok: 3, failed: 0, skipped: 0, stopped: null });
    expect(operator.requests.map((r) => JSON.parse(r.body.toString()).depositId)).toEqual(['d-1', 'd-2', 'd-3']);

    const again = await runCli(['--home', dir, 'redeliver', '--failed']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`redelivered to ${operator.url}: selected 3, sent 0, 2XX 0, failed 0, skipped 3\n`);
    expect(operator.requests).toHaveLength(3);
  });

  it('exits 1 when a send gets no 2XX, and 2 on usage errors or an unconfirmed production profile', async () => {
    const { dir, operator } = await home(1, true);
    const unconfirmed = await runCli(['--home', dir, 'redeliver']);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('marked production');
    for (const args of [
      ['--ids', '5-2'],
      ['--since', 'last week'],
      ['--signature', 'none'],
      ['--kind', 'token'],
      ['--rate', '0'],
    ]) {
      const r = await runCli(['--home', dir, 'redeliver', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect(operator.requests).toHaveLength(0);
    // An operator that shares another secret refuses the platform's signature.
    const other = closeAfterTest(await startOperator({ secret: 'another-secret' }));
    const elsewhere = await runCli(['--home', dir, 'redeliver', '--to', other.url, '--confirm-production']);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stdout).toContain('sent 1, 2XX 0, failed 1');
    expect(elsewhere.stdout).toMatch(/failed: capture \d+ \(deposit d-1\) -> exchange \d+: 401/);
  });
  it('stops on Ctrl+C after the send in flight, and the same command resumes', async () => {
    const { dir, operator } = await home(4);
    const { cmd, args } = cliCommand();
    // One send every 2 seconds: the interrupt comes while the run waits for its second slot.
    const child = spawn(cmd, [...args, '--home', dir, 'redeliver', '--rate', '0.5'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Interrupt once the operator has the first capture.
    await new Promise<void>((resolve) => {
      const check = (): void => (operator.requests.length > 0 ? resolve() : void setImmediate(check));
      check();
    });
    child.kill('SIGINT');
    expect(await exited).toBe(1);
    expect(stdout).toContain('sent 1, 2XX 1, failed 0, skipped 0 (stopped: run the same command again to resume)');
    const resumed = await runCli(['--home', dir, 'redeliver', '--rate', '1000']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('selected 4, sent 3, 2XX 3, failed 0, skipped 1');
    expect(operator.requests.map((r) => JSON.parse(r.body.toString()).depositId)).toEqual(['d-1', 'd-2', 'd-3', 'd-4']);
  }, 60_000);
});
