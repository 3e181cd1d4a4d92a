// db copy on a real PostgreSQL: a laptop's SQLite log into the team's database and back into a fresh data
// directory, whole and exact; a copy stopped part-way and run again ends the same, with nothing twice; a
// database that holds another log is refused before anything is written; the password never shows.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { COPIED_TABLES } from '../../../src-main/core/store/copy';
import { connectPostgres } from '../../../src-main/core/store/postgres';
import type { DatabaseCopyProgress } from '../../../src-main/shared/team-store';
import { runCli } from '../../helpers/cli';
import { openDesk, secretsOf, sqliteOf } from '../../helpers/desk';
import { dumpLog, fillEveryColumn, NOT_UTF8 } from '../../helpers/full-log';
import { must } from '../../helpers/must';
import { usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';

const server = usePostgres();

async function countsIn(url: string): Promise<Record<string, number>> {
  const c = await connectPostgres(url);
  try {
    const out: Record<string, number> = {};
    for (const t of COPIED_TABLES) out[t.name] = Number((await c.query(`SELECT count(*) AS n FROM ${t.name}`)).rows[0].n);
    return out;
  } finally {
    await c.end();
  }
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const c = await connectPostgres(url);
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

describe('db copy between SQLite and PostgreSQL', () => {
  it('round-trips a log exactly: every row, byte and link, ids kept, sealed secrets still open with the key', async () => {
    const url = await server().newDatabase();
    const homeA = tempDir();
    const a = openDesk(homeA);
    const exchanges = await fillEveryColumn(a);

    const into = must(await a.copyDatabase({ direction: 'to', url }));
    expect(into).toMatchObject({ complete: true, alreadyThere: 0 });
    expect(into.migration?.applied).toEqual([
      '1 initial',
      '2 text-search',
      '3 profile-balance-url-sealed',
      '4 exchanges-room-for-answers',
      '5 rare-value-indexes',
    ]);
    expect(into.tables.find((t) => t.table === 'exchanges')?.copied).toBe(exchanges);

    // In PostgreSQL: the bytes as they were, the links, and new ids after the copied ones.
    const [row1] = await query<{ req_body: Buffer; res_body: Buffer; truncated: boolean }>(
      url,
      'SELECT req_body, res_body, truncated FROM exchanges WHERE id = 1',
    );
    expect(row1!.req_body.equals(NOT_UTF8)).toBe(true);
    expect(row1!.truncated).toBe(true);
    expect(await query(url, 'SELECT id, source_id FROM exchanges WHERE id IN (2, 5) ORDER BY id')).toEqual([
      { id: '2', source_id: '1' },
      { id: '5', source_id: '2' },
    ]);
    const [next] = await query<{ id: string }>(
      url,
      `INSERT INTO exchanges (direction, kind, origin, at, method, path, req_headers, req_body, req_size) VALUES ('inbound', 'pay', 'proxy', 'x', 'POST', '/', '[]', '', 0) RETURNING id`,
    );
    expect(Number(next!.id)).toBe(100 + 39 * 3 + 1);
    await query(url, `DELETE FROM exchanges WHERE id = ${next!.id}`);

    const homeB = tempDir();
    const b = openDesk(homeB);
    const back = must(await b.copyDatabase({ direction: 'from', url }));
    expect(back).toMatchObject({ complete: true, alreadyThere: 0, copied: into.copied, migration: null });
    expect(dumpLog(sqliteOf(b))).toEqual(dumpLog(sqliteOf(a)));
    // The store's cached counts saw the copied rows.
    const counts = must(await b.getStatus()).counts;
    expect(counts.inbound + counts.outbound).toBe(exchanges);

    // The key never went anywhere: with A's key file, B opens the sealed secrets it received.
    await b.close();
    copyFileSync(join(homeA, 'secrets.key'), join(homeB, 'secrets.key'));
    const reopened = openDesk(homeB);
    expect(secretsOf(reopened).profile('acme')).toMatchObject({ secret: 'the current secret', previousSecret: 'the previous secret' });

    // Copying back into the log it came from finds every row there already.
    const again = must(await a.copyDatabase({ direction: 'from', url }));
    expect(again).toMatchObject({ complete: true, copied: 0, alreadyThere: into.copied });
  });

  it('resumes a copy stopped after a few batches, and ends with every row once', async () => {
    const url = await server().newDatabase();
    const a = openDesk();
    await fillEveryColumn(a);
    const all = Object.values(dumpLog(sqliteOf(a))).reduce((n, t) => n + t.rows.length, 0);
    const first = must(await a.copyDatabase({ direction: 'to', url, batchRows: 4, stopAfterBatches: 3 }));
    expect(first.complete).toBe(false);
    expect(first.copied).toBeGreaterThan(0);
    expect(first.copied).toBeLessThan(all);
    expect(Object.values(await countsIn(url)).reduce((x, y) => x + y, 0)).toBe(first.copied);

    const progress: DatabaseCopyProgress[] = [];
    const rest = must(await a.copyDatabase({ direction: 'to', url, batchRows: 4 }, (p) => progress.push(p)));
    expect(rest).toMatchObject({ complete: true, alreadyThere: first.copied, copied: all - first.copied });
    expect(progress.at(-1)).toMatchObject({ copied: rest.copied, total: rest.copied });
    expect(progress.map((p) => p.copied)).toEqual([...progress.map((p) => p.copied)].sort((x, y) => x - y));

    const counts = await countsIn(url);
    for (const [table, rows] of Object.entries(dumpLog(sqliteOf(a)))) expect(counts[table], table).toBe(rows.rows.length);
    const b = openDesk();
    must(await b.copyDatabase({ direction: 'from', url, batchRows: 7 }));
    expect(dumpLog(sqliteOf(b))).toEqual(dumpLog(sqliteOf(a)));
  });

  it('refuses a database that holds another log, before writing anything', async () => {
    const url = await server().newDatabase();
    const a = openDesk();
    await fillEveryColumn(a, 5);
    must(await a.copyDatabase({ direction: 'to', url }));
    const before = await countsIn(url);

    const other = openDesk();
    await fillEveryColumn(other, 6);
    const refused = await other.copyDatabase({ direction: 'to', url });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/already holds profiles rows that are not this copy's .*never merges two logs/);
    expect(await countsIn(url)).toEqual(before);

    // The other way: a data directory with a log of its own is not overwritten either.
    const into = await other.copyDatabase({ direction: 'from', url });
    expect(into.ok).toBe(false);

    // A column the copy does not know (a later SQLite migration's) stops it too, named, rather than be left behind.
    const newer = openDesk();
    await fillEveryColumn(newer, 1);
    sqliteOf(newer).exec(`ALTER TABLE exchanges ADD COLUMN colour TEXT`);
    const unknown = await newer.copyDatabase({ direction: 'to', url: await server().newDatabase() });
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error.message).toMatch(/exchanges has column colour that this Wager Desk cannot copy; nothing was copied/);
  });

  it('stops at a text PostgreSQL cannot hold (a NUL character), naming the row, and writes nothing of its batch', async () => {
    const url = await server().newDatabase();
    const a = openDesk();
    await fillEveryColumn(a, 0);
    sqliteOf(a)
      .prepare(
        `INSERT INTO exchanges (id, direction, kind, origin, at, method, path, req_headers, req_body, req_size, deposit_id)
         VALUES (6, 'inbound', 'pay', 'proxy', 'x', 'POST', '/acme/pay', '[]', x'', 0, 'dep' || char(0) || '1')`,
      )
      .run();
    const refused = await a.copyDatabase({ direction: 'to', url });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/exchanges\.deposit_id holds a NUL character.*\(row 6\)/);
    expect((await countsIn(url)).exchanges).toBe(0);
  });

  it('runs from the CLI: migrate, then copy with a plain summary, never printing the password', async () => {
    const url = await server().newDatabase();
    const password = new URL(url).password;
    const home = tempDir();
    const desk = openDesk(home);
    await fillEveryColumn(desk, 2);
    await desk.close();

    const migrate = await runCli(['--home', home, 'db', 'migrate'], { env: { WAGER_DESK_DATABASE_URL: url } });
    expect(migrate.stderr).toBe('');
    expect(migrate.code).toBe(0);
    expect(migrate.stdout).toContain(
      'schema 0 -> 5 (applied 1 initial, 2 text-search, 3 profile-balance-url-sealed, 4 exchanges-room-for-answers, 5 rare-value-indexes)',
    );
    expect(migrate.stdout).toContain('search index: trigram (pg_trgm)');

    const copy = await runCli(['--home', home, 'db', 'copy', '--to'], { env: { WAGER_DESK_DATABASE_URL: url } });
    expect(copy.code).toBe(0);
    expect(copy.stdout).toMatch(/^copied \d+ rows from the SQLite log .* to PostgreSQL at postgres:\/\/postgres:\*\*\*@/);
    expect(copy.stdout).toMatch(/\n {2}exchanges +5\n/);

    const wrong = new URL(url);
    wrong.password = 'not-the-password-4711';
    const refused = await runCli(['--home', home, 'db', 'migrate'], { env: { WAGER_DESK_DATABASE_URL: wrong.toString() } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/PostgreSQL at postgres:\/\/postgres:\*\*\*@.*password authentication failed/);
    for (const out of [migrate, copy, refused]) {
      expect(out.stdout + out.stderr).not.toContain(password);
      expect(out.stdout + out.stderr).not.toContain('not-the-password-4711');
    }
  });
});
