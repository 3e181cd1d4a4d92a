// A profile's public URL through the CLI, and `profile use` saying how a running proxy takes the
// profile's upstream (a running proxy keeps its own until told).
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp';

describe('profile --public-url and profile use', () => {
  it('stores, shows and clears a public URL; refuses one that is not http(s)', async () => {
    const home = tempDir();
    const set = await runCli(['--home', home, 'profile', 'set', 'acme', '--public-url', 'https://acme.trycloudflare.com/', '--json']);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ name: 'acme', publicUrl: 'https://acme.trycloudflare.com' });
    expect((await runCli(['--home', home, 'profile', 'list'])).stdout).toContain('public url: https://acme.trycloudflare.com');

    const bad = await runCli(['--home', home, 'profile', 'set', 'acme', '--public-url', 'ftp://x']);
    expect(bad.code).toBe(2);
    const cleared = await runCli(['--home', home, 'profile', 'set', 'acme', '--public-url', '', '--json']);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ publicUrl: null });
  });

  it('profile use names how to apply an upstream to a running proxy, and says nothing more without one', async () => {
    const home = tempDir();
    expect((await runCli(['--home', home, 'profile', 'set', 'plain'])).code).toBe(0);
    expect(
      (await runCli(['--home', home, 'profile', 'set', 'staging', '--callback-prefix', '/staging', '--upstream', 'https://staging.operator.example/api'])).code,
    ).toBe(0);
    const used = await runCli(['--home', home, 'profile', 'use', 'staging']);
    expect(used.code).toBe(0);
    expect(used.stdout.split('\n')).toEqual([
      'active profile: staging',
      'upstream https://staging.operator.example/api: a running proxy keeps its upstream until it is changed;',
      '  restart `wager-desk serve` (without --upstream) or choose "Apply to the running proxy" in the app to forward there',
      '',
    ]);
    expect((await runCli(['--home', home, 'profile', 'use', 'plain'])).stdout).toBe('active profile: plain\n');
  });
});
