// What a new user reads on the terminal, each said once and the way the UI says it: a search without
// hits is not an empty log, an amount reads as in the UI's detail, the uppercase-hex sentence appears
// once, another profile's secret is named without speaking of a check, a not-judged edge case shows the
// answer to read, and the sandbox's books keep a 1,000-character userId to one line.
import { describe, expect, it } from 'vitest';
import { NO_CAPTURE_MATCHES } from '../../../src-main/shared/list-words';
import { sign } from '../../../src-main/core/signing';
import { capture } from '../../helpers/captures';
import { runCli } from '../../helpers/cli';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { startOperator } from '../../helpers/operator';
import { tempDir } from '../../helpers/temp';

const ACME = 'acme-signing-secret-0123';
const BETA = 'beta-signing-secret-4567';
const pay = (depositId: string): string => `{"depositId":"${depositId}","userId":"u-acme-9","amount":500,"currency":"USD"}`;

/** Two profiles, acme active; one capture signed right (500 minor units of USD), one in uppercase hex, one with beta's secret. */
async function home() {
  const dir = tempDir();
  const desk = openDesk(dir);
  must(await desk.saveProfile({ name: 'acme', secret: ACME }));
  must(await desk.saveProfile({ name: 'beta', secret: BETA, callbackPrefix: '/beta' }));
  must(await desk.useProfile('acme'));
  const plain = await capture(desk, { body: pay('dep-plain'), signature: { secret: ACME }, response: { status: 200 } });
  const upper = await capture(desk, { body: pay('dep-upper'), signature: sign(Buffer.from(pay('dep-upper')), ACME).toUpperCase() });
  const other = await capture(desk, { body: pay('dep-other'), signature: { secret: BETA } });
  await desk.close();
  return { dir, plain, upper, other };
}

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

describe('the first day on the terminal', () => {
  it('says no capture matches a search without hits, and lists amounts as the UI details them', async () => {
    const { dir } = await home();
    const none = await runCli(['--home', dir, 'captures', '--search', 'zz-no-such']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe(`${NO_CAPTURE_MATCHES} in profile acme (--search "zz-no-such"): run \`wager-desk captures\` without them for the whole list\n`);
    const list = await runCli(['--home', dir, 'captures']);
    expect(list.stdout).toContain('5.00 USD (500 minor units)');
    expect(list.stdout).not.toMatch(/ 500 USD/);
  });

  it('show: the amount as the UI writes it, and the uppercase-hex sentence once', async () => {
    const { dir, plain, upper } = await home();
    const shown = await runCli(['--home', dir, 'show', String(plain)]);
    expect(shown.stdout).toContain('\namount: 5.00 USD (500 minor units)\n');
    const out = await runCli(['--home', dir, 'show', String(upper)]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('signature: mismatch: the right HMAC, written in uppercase hex');
    expect(occurrences(out.stdout, 'uppercase hex')).toBe(1);
  });

  it("names another profile's secret and the capture's own, without speaking of a check", async () => {
    const { dir, other } = await home();
    const out = await runCli(['--home', dir, 'show', String(other)]);
    expect(out.stdout).toContain(
      'diagnosis: The body was signed with the secret of profile "beta", not with the secret of profile "acme" it was verified with.',
    );
    expect(out.stdout).not.toMatch(/\bcheck\b/);
  });

  it('verify: the uppercase-hex sentence once', async () => {
    const dir = tempDir();
    const body = pay('dep-verify');
    const out = await runCli(['--home', dir, 'verify', '--signature', sign(Buffer.from(body), ACME).toUpperCase(), '--secret-env', 'S'], {
      env: { S: ACME },
      input: body,
    });
    expect(out.code).toBe(1);
    expect(occurrences(out.stdout, 'uppercase hex')).toBe(1);
  });

  it("prints a not-judged edge case's answer to read", async () => {
    const operator = await startOperator({ secret: ACME });
    try {
      const { dir } = await home();
      const out = await runCli(['--home', dir, 'edge-cases', 'run', '--only', 'unknown-game-id', '--to', operator.url]);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toMatch(/^NOT JUDGED unknown-game-id .*WIN with an unknown game: \d{3}/m);
      expect(out.stdout).not.toContain('nothing judged');
    } finally {
      await operator.close();
    }
  });

  it("keeps the sandbox's 1,000-character userId to one short line, and says --json has it whole", async () => {
    const dir = tempDir();
    const desk = openDesk(dir);
    const long = `wd-test-user-${'x'.repeat(987)}`;
    must(await desk.setSandboxBalance(long, 900));
    await desk.close();
    const out = await runCli(['--home', dir, 'sandbox']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).not.toContain(long);
    for (const line of out.stdout.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    expect(out.stdout).toContain('--json prints them whole');
    const json = await runCli(['--home', dir, 'sandbox', '--json']);
    expect(json.stdout).toContain(long);
  });
});
