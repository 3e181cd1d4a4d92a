// profile set --callback-prefix and --amounts: stored, shown, validated (exit 2 with a reason), and
// kept by a profile's copy; the desk API refuses what the CLI refuses.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../src-main/core/store/sqlite';
import { MIGRATIONS } from '../../../src-main/core/store/sqlite/migrations';
import { createDesk } from '../../../src-main/core/desk';
import { runCli } from '../../helpers/cli';
import { openDesk } from '../../helpers/desk';
import { tempDir } from '../../helpers/temp';

describe('profile callback settings', () => {
  it('sets, shows and clears the callback prefix and the amounts from the CLI', async () => {
    const home = tempDir();
    const set = await runCli(['--home', home, 'profile', 'set', 'acme', '--callback-prefix', '/api/v2/acme', '--amounts', 'decimal', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ name: 'acme', callbackPrefix: '/api/v2/acme', amounts: 'decimal' });
    const list = await runCli(['--home', home, 'profile', 'list']);
    expect(list.stdout).toContain('callbacks: /api/v2/acme/pay, /api/v2/acme/results   amounts: decimal');

    for (const bad of ['acme', '/acme/', '/acme?x=1']) {
      const refused = await runCli(['--home', home, 'profile', 'set', 'acme', '--callback-prefix', bad]);
      expect(refused.code, bad).toBe(2);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await runCli(['--home', home, 'profile', 'set', 'acme', '--amounts', 'cents'])).code).toBe(2);

    // Unchanged by the refusals; an untouched flag leaves the setting as it is.
    const again = await runCli(['--home', home, 'profile', 'set', 'acme', '--operator-id', 'op-1', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ callbackPrefix: '/api/v2/acme', amounts: 'decimal' });
  });

  it('defaults to /platform and integer amounts, and keeps them through a copy', async () => {
    const desk = openDesk();
    const created = await desk.saveProfile({ name: 'plain' });
    expect(created.ok && created.value).toMatchObject({ callbackPrefix: '/platform', amounts: 'integer' });
    const changed = await desk.saveProfile({ name: 'plain', callbackPrefix: '/acme', amounts: 'decimal' });
    expect(changed.ok && changed.value).toMatchObject({ callbackPrefix: '/acme', amounts: 'decimal' });
    // One proxy serves both: the copy cannot share the prefix, it gets one named after it.
    const copy = await desk.duplicateProfile('plain', 'copy');
    expect(copy.ok && copy.value).toMatchObject({ callbackPrefix: '/copy', amounts: 'decimal' });
    const cleared = await desk.saveProfile({ name: 'plain', callbackPrefix: null });
    expect(cleared.ok && cleared.value.callbackPrefix).toBe('/platform');
    const bad = await desk.saveProfile({ name: 'plain', callbackPrefix: 'acme' });
    expect(!bad.ok && bad.error).toMatchObject({ code: 'bad-input' });
    const badAmounts = await desk.saveProfile({ name: 'plain', amounts: 'cents' as never });
    expect(!badAmounts.ok && badAmounts.error.code).toBe('bad-input');
  });

  it('migrates a database made before the settings existed: its profiles get the defaults', async () => {
    const home = tempDir();
    const old = new Database(join(home, DATABASE_FILE));
    for (const m of MIGRATIONS.filter((x) => x.version <= 2)) m.up(old as never);
    old.pragma('user_version = 2');
    old.prepare("INSERT INTO profiles (name, created_at, updated_at) VALUES ('old', 'x', 'x')").run();
    old.close();
    const desk = createDesk({ home });
    try {
      const list = await desk.listProfiles();
      expect(list.ok && list.value[0]).toMatchObject({ name: 'old', callbackPrefix: '/platform', amounts: 'integer' });
    } finally {
      await desk.close();
    }
  });
});
