import { describe, expect, it } from 'vitest';
import { capture } from '../../helpers/captures';
import { runCli } from '../../helpers/cli';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { tempDir } from '../../helpers/temp';

const pay = (depositId: string): string => JSON.stringify({ depositId, userId: 'u-1', amount: 100, currency: 'EUR', gameId: 'blocks' });

describe('profile rotation and reverify from the CLI', () => {
  it('sets and clears a previous secret, showing only its fingerprint', async () => {
    const home = tempDir();
    const env = { CUR: 'current-secret', OLD: 'old-secret' };
    const set = await runCli(['--home', home, 'profile', 'set', 'acme', '--secret-env', 'CUR', '--previous-secret-env', 'OLD', '--json'], { env });
    expect(set.code).toBe(0);
    const view = JSON.parse(set.stdout) as { previousSecret: { set: boolean; fingerprint: string } };
    expect(view.previousSecret).toMatchObject({ set: true, fingerprint: expect.stringMatching(/^[0-9a-f]{8}$/) });
    expect(set.stdout).not.toContain('old-secret');
    const listed = await runCli(['--home', home, 'profile', 'list']);
    expect(listed.stdout).toContain(`previous secret: set (${view.previousSecret.fingerprint})`);
    const both = await runCli(['--home', home, 'profile', 'set', 'acme', '--previous-secret-env', 'OLD', '--no-previous-secret'], { env });
    expect(both.code).toBe(2);
    const cleared = await runCli(['--home', home, 'profile', 'set', 'acme', '--no-previous-secret', '--json']);
    expect((JSON.parse(cleared.stdout) as { previousSecret: { set: boolean } }).previousSecret.set).toBe(false);
  });

  it('reverify judges no-secret captures again once the secret is set, and says with what', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    must(await desk.saveProfile({ name: 'acme' }));
    const a = await capture(desk, { body: pay('d-1'), signature: { secret: 'later' } });
    const b = await capture(desk, { body: pay('d-2'), signature: { secret: 'later' } });
    const c = await capture(desk, { body: pay('d-3'), signature: { secret: 'later' } });
    await desk.close();

    const set = await runCli(['--home', home, 'profile', 'set', 'acme', '--secret-env', 'S'], { env: { S: 'later' } });
    expect(set.code).toBe(0);
    const run = await runCli(['--home', home, 'reverify', '--ids', `${a}-${b}`, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { judged: number; changed: number; profile: string; changedIds: number[] };
    expect(report).toMatchObject({ judged: 2, changed: 2, profile: 'acme', changedIds: [a, b] });

    const shown = await runCli(['--home', home, 'show', String(a), '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ signature: { verdict: 'valid' }, reverified: { profile: 'acme', originalVerdict: 'no-secret' } });
    const untouched = await runCli(['--home', home, 'show', String(c), '--json']);
    expect(JSON.parse(untouched.stdout)).toMatchObject({ signature: { verdict: 'no-secret' }, reverified: null });

    const text = await runCli(['--home', home, 'reverify', '--verdict', 'no-secret']);
    expect(text.stdout).toMatch(/verified again: 1 capture, 1 changed \(now valid 1\)\nwith profile acme \(sha256:[0-9a-f]{8}\) at /);
  });
});
