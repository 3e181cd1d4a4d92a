// A team's first command usually comes before `db migrate`: on a database without this version's schema,
// every call says in one line what to run, never a raw SQL error (relation "..." does not exist), and
// never the database's password.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import type { Result } from '../../../src-main/shared/model';
import { runCli } from '../../helpers/cli';
import { usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';

const server = usePostgres();

const STEP = /^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/wd_test_\w+ has no Wager Desk schema: run wager-desk db migrate --database URL first\.$/;

describe('a database without the schema', () => {
  it('every call of a desk on it names the step to take, in one line', async () => {
    const url = await server().newDatabase();
    const desk = createDesk({ home: tempDir(), database: url });
    onTestFinished(() => desk.close());
    const calls: Array<[string, Promise<Result<unknown>>]> = [
      ['listProfiles', desk.listProfiles()],
      ['getStatus', desk.getStatus()],
      ['listExchanges', desk.listExchanges({ direction: 'all' })],
      ['followExchanges', desk.followExchanges({ afterId: null })],
      ['listSavedRequests', desk.listSavedRequests()],
      ['reverify', desk.reverify({ ids: [1] })],
      ['saveProfile', desk.saveProfile({ name: 'team', callbackPrefix: '/team' })],
    ];
    for (const [name, call] of calls) {
      const r = await call;
      expect({ name, ok: r.ok }).toEqual({ name, ok: false });
      if (r.ok) continue;
      expect(r.error.message, name).toMatch(STEP);
      expect(r.error.message).not.toContain(new URL(url).password);
    }
    // The schema's own tools work on it: migrating it is the way out.
    const migrated = await desk.migrateDatabase(url);
    expect(migrated.ok && migrated.value.to).toBeGreaterThan(0);
    const saved = await desk.saveProfile({ name: 'team', callbackPrefix: '/team' });
    expect(saved.ok, JSON.stringify(saved)).toBe(true);
  });

  it('profile set from the command line says it on one line of stderr and exits 2', { timeout: 60_000 }, async () => {
    const url = await server().newDatabase();
    const r = await runCli(['--home', tempDir(), 'profile', 'set', 'team', '--secret-env', 'SECRET', '--callback-prefix', '/team'], {
      env: { SECRET: 'first-day-secret', WAGER_DESK_DATABASE_URL: url },
    });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr.replace(/^wager-desk: /, '').trimEnd()).toMatch(STEP);
  });
});
