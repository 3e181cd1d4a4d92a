// `db use`: the team database a data directory's desk uses when no --database or WAGER_DESK_DATABASE_URL
// names one (what the app reads at its start). Checked before it is saved; kept in a file only its owner
// may read, never in the log's database; --database still wins; a file unfit to read is refused by what it
// is, and `db use --sqlite` still gets out of it.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { formsOf } from '../../../src-main/core/redact/secret-forms';
import { connectPostgres } from '../../../src-main/core/store/postgres';
import { runCli } from '../../helpers/cli';
import { closeAfterTest } from '../../helpers/closing';
import { must } from '../../helpers/must';
import { usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';

const server = usePostgres();
const SAVED = 'team-database';

const passwordOf = (url: string): string => decodeURIComponent(new URL(url).password);
/** The database in the environment: a URL with a password is refused as an argument (every user sees it in ps). */
const inEnv = (url: string) => ({ env: { WAGER_DESK_DATABASE_URL: url } });

async function migratedDatabase(): Promise<string> {
  const url = await server().newDatabase();
  const m = await runCli(['--home', tempDir(), 'db', 'migrate'], inEnv(url));
  expect(m.code, m.stderr).toBe(0);
  return url;
}

/** A row put in the team's log by another hand (as another proxy would), with a path to tell it by. */
async function insertRow(url: string, path: string): Promise<void> {
  const c = await connectPostgres(url);
  try {
    await c.query(
      `INSERT INTO exchanges (direction, kind, origin, at, method, path, req_headers, req_body, req_size) VALUES ('inbound', 'pay', 'proxy', $1, 'POST', $2, '[]', '', 0)`,
      [new Date().toISOString(), path],
    );
  } finally {
    await c.end();
  }
}

const paths = async (home: string, database?: string): Promise<string[]> => {
  const r = await runCli(['--home', home, 'captures', '--ndjson'], database === undefined ? {} : inEnv(database));
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { path: string }).path);
};

/** Every byte the data directory holds but the saved file itself. */
function dataDirBytes(home: string): Buffer {
  return Buffer.concat(
    readdirSync(home)
      .filter((name) => name !== SAVED && statSync(join(home, name)).isFile())
      .map((name) => readFileSync(join(home, name))),
  );
}

describe('db use', () => {
  it('saves a database that holds the schema, and every command without --database then uses it; --sqlite goes back', async () => {
    const url = await migratedDatabase();
    await insertRow(url, '/acme/pay/from-the-team');
    const home = tempDir();
    expect(await paths(home)).toEqual([]);

    const set = await runCli(['--home', home, 'db', 'use', '--from-env'], inEnv(url));
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('exchange log: PostgreSQL at postgres://postgres:***@');
    expect(set.stdout + set.stderr).not.toContain(passwordOf(url));
    expect(statSync(join(home, SAVED)).mode & 0o777).toBe(0o600);

    expect(await paths(home)).toEqual(['/acme/pay/from-the-team']);
    const status = await runCli(['--home', home, 'status', '--json']);
    expect(JSON.parse(status.stdout).exchangeLog).toContain('PostgreSQL');
    // A desk opened without a database (the app's start) reads the same choice.
    const desk = closeAfterTest(createDesk({ home }));
    expect(must(await desk.listExchanges({ allProfiles: true })).items.map((x) => x.path)).toEqual(['/acme/pay/from-the-team']);
    await desk.close();

    const shown = await runCli(['--home', home, 'db', 'use', '--json']);
    expect(JSON.parse(shown.stdout)).toEqual({ database: expect.stringContaining('***'), file: join(home, SAVED) });

    // The password is in no other file of the data directory, in any form a scan could undo.
    const bytes = dataDirBytes(home).toString('latin1');
    for (const form of formsOf(passwordOf(url))) expect(bytes.includes(form.text), form.text).toBe(false);

    const back = await runCli(['--home', home, 'db', 'use', '--sqlite']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain("the data directory's own SQLite");
    expect(existsSync(join(home, SAVED))).toBe(false);
    expect(await paths(home)).toEqual([]);
  });

  it('$WAGER_DESK_DATABASE_URL wins over the saved database', async () => {
    const saved = await migratedDatabase();
    const named = await migratedDatabase();
    await insertRow(saved, '/acme/pay/saved');
    await insertRow(named, '/acme/pay/named');
    const home = tempDir();
    expect((await runCli(['--home', home, 'db', 'use', '--from-env'], inEnv(saved))).code).toBe(0);
    expect(await paths(home)).toEqual(['/acme/pay/saved']);
    expect(await paths(home, named)).toEqual(['/acme/pay/named']);
  });

  it('refuses a database without the schema, or one it cannot reach, and saves nothing', async () => {
    const home = tempDir();
    const empty = await server().newDatabase();
    const r = await runCli(['--home', home, 'db', 'use', '--from-env'], inEnv(empty));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/schema|db migrate/i);
    expect(r.stderr).not.toContain(passwordOf(empty));
    const unreachable = await runCli(['--home', home, 'db', 'use', 'postgres://desk:hunter2-secret@127.0.0.1:1/none']);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).not.toContain('hunter2-secret');
    const notPostgres = await runCli(['--home', home, 'db', 'use', 'mysql://x@y/z']);
    expect(notPostgres.code).toBe(2);
    expect(notPostgres.stderr).toContain('postgres://');
    expect(existsSync(join(home, SAVED))).toBe(false);
  });

  it('refuses a saved file others may read, or one that is not a file, naming it and the way out; db use --sqlite still works', async () => {
    const url = await migratedDatabase();
    const home = tempDir();
    expect((await runCli(['--home', home, 'db', 'use', '--from-env'], inEnv(url))).code).toBe(0);
    chmodSync(join(home, SAVED), 0o644);
    const loose = await runCli(['--home', home, 'captures']);
    expect(loose.code).toBe(2);
    expect(loose.stderr).toContain(join(home, SAVED));
    expect(loose.stderr).toContain('others may read it');
    expect(loose.stderr).toContain('db use --sqlite');
    expect(loose.stderr).not.toContain(passwordOf(url));
    expect((await runCli(['--home', home, 'db', 'use', '--sqlite'])).code).toBe(0);

    // A FIFO in its place is refused by type: opening it must not wait for a writer.
    execFileSync('mkfifo', [join(home, SAVED)]);
    const fifo = await runCli(['--home', home, 'captures']);
    expect(fifo.code).toBe(2);
    expect(fifo.stderr).toContain('a FIFO');
  });
});
