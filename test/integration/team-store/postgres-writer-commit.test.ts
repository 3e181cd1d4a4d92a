// The proxy's writer commits as the team's server says: every commit flushed where synchronous_commit is
// PostgreSQL's default, and without the flush where the team chose so (for the database, the proxies' role,
// or in the URL's options, docs/TEAM.md). The desk never sets it for the team. Read from the writer's own
// connections (SHOW), with pg_settings as the control of what the server says.
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { connectPostgres } from '../../../src-main/core/store/postgres/connect';
import { WRITER } from '../../../src-main/core/store/postgres/team-log';
import { usePostgres } from '../../helpers/postgres';

const server = usePostgres();

const synchronousCommit = async (client: pg.Client): Promise<string> =>
  ((await client.query('SHOW synchronous_commit')).rows[0] as { synchronous_commit: string }).synchronous_commit;

async function writerSetting(url: string): Promise<string> {
  const client = await connectPostgres(url, WRITER);
  try {
    return await synchronousCommit(client);
  } finally {
    await client.end();
  }
}

describe("the proxy's writer on PostgreSQL", () => {
  it('flushes every commit on a server left at its default', async () => {
    const url = await server().newDatabase();
    const control = await connectPostgres(url);
    let row: { setting: string; source: string };
    try {
      row = (await control.query("SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'")).rows[0] as typeof row;
    } finally {
      await control.end();
    }
    if (!process.env.WAGER_DESK_TEST_DATABASE_URL) {
      // The tests' embedded server leaves it at PostgreSQL's default, as a team's server has it.
      expect(row).toEqual({ setting: 'on', source: 'default' });
    }
    expect(await writerSetting(url)).toBe(row.setting);
  }, 60_000);

  it("commits without the flush where the team chose so: for the database, or in the URL's options", async () => {
    const url = await server().newDatabase();
    const name = new URL(url).pathname.slice(1);
    const admin = await connectPostgres(url);
    try {
      await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
    } finally {
      await admin.end();
    }
    expect(await writerSetting(url)).toBe('off');

    const other = await server().newDatabase();
    const withOptions = new URL(other);
    withOptions.searchParams.set('options', '-c synchronous_commit=off');
    expect(await writerSetting(other)).not.toBe('off');
    expect(await writerSetting(withOptions.toString())).toBe('off');
  }, 60_000);
});
