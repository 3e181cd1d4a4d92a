// The proxy's writer commits as SQLite's WAL with synchronous=NORMAL does: without waiting for the WAL's
// flush, where the server's synchronous_commit is its built-in default. A team that set it itself (for
// the database, or in the URL's options) keeps its choice, and every other connection of the desk keeps
// the server's value. Read from the connections themselves (SHOW), with a bare connection as the control.
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { connectPostgres, READER } from '../../../src-main/core/store/postgres/connect';
import { WRITER } from '../../../src-main/core/store/postgres/team-log';
import { usePostgres } from '../../helpers/postgres';

const server = usePostgres();

const synchronousCommit = async (client: pg.Client): Promise<string> =>
  ((await client.query('SHOW synchronous_commit')).rows[0] as { synchronous_commit: string }).synchronous_commit;

async function settingOf(url: string, options: Parameters<typeof connectPostgres>[1]): Promise<string> {
  const client = await connectPostgres(url, options);
  try {
    return await synchronousCommit(client);
  } finally {
    await client.end();
  }
}

describe("the proxy's writer on PostgreSQL", () => {
  it("commits without the flush where nobody set synchronous_commit; the desk's other connections keep the server's", async () => {
    const url = await server().newDatabase();
    const control = await connectPostgres(url);
    let source: string;
    let serverValue: string;
    try {
      const row = (await control.query("SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'")).rows[0] as {
        setting: string;
        source: string;
      };
      source = row.source;
      serverValue = row.setting;
    } finally {
      await control.end();
    }
    const writer = await settingOf(url, WRITER);
    const reader = await settingOf(url, READER);
    if (source === 'default') {
      // The tests' embedded server leaves it at PostgreSQL's default (on).
      expect(serverValue).toBe('on');
      expect(writer).toBe('off');
    } else {
      // An existing server (WAGER_DESK_TEST_DATABASE_URL) whose synchronous_commit someone set: kept.
      expect(writer).toBe(serverValue);
    }
    expect(reader).toBe(serverValue);
  }, 60_000);

  it("keeps a team's own synchronous_commit: the database's, and the URL's options", async () => {
    const url = await server().newDatabase();
    const name = new URL(url).pathname.slice(1);
    const admin = await connectPostgres(url);
    try {
      await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = 'local'`);
    } finally {
      await admin.end();
    }
    expect(await settingOf(url, WRITER)).toBe('local');

    const withOptions = new URL(url);
    withOptions.searchParams.set('options', '-c synchronous_commit=remote_write');
    expect(await settingOf(withOptions.toString(), WRITER)).toBe('remote_write');
  }, 60_000);
});
