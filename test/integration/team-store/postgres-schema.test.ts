// The PostgreSQL schema on a real server: migrate creates what the copy and the engine need, is safe to
// run again and from two processes at once, refuses a newer schema, and the sandbox's books hold a
// deposit once per profile by a constraint, even when two connections record it at the same moment. A
// database at an older schema is brought up to date with its rows.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { COPIED_TABLES, columnsOf } from '../../../src-main/core/store/copy';
import { connectPostgres, migratePostgres, PG_LATEST_VERSION } from '../../../src-main/core/store/postgres';
import { VERSION_TABLE } from '../../../src-main/core/store/postgres/migrate';
import { PG_MIGRATIONS } from '../../../src-main/core/store/postgres/migrations';
import { ilikePattern, textMatchCondition } from '../../../src-main/core/store/postgres/text-search';
import { usePostgres } from '../../helpers/postgres';
import { RARE_KIND, RARE_VERDICT } from '../../../src-main/core/store/rows/rare-values';

const server = usePostgres();

async function connected(url: string): Promise<pg.Client> {
  return connectPostgres(url);
}

async function withClients<T>(url: string, n: number, fn: (clients: pg.Client[]) => Promise<T>): Promise<T> {
  const clients = await Promise.all(Array.from({ length: n }, () => connected(url)));
  try {
    return await fn(clients);
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

const deposit = (c: pg.Client, profile: string, depositId: string) =>
  c.query(
    `INSERT INTO sandbox_deposits (profile, deposit_id, user_id, amount, currency, paid_at, pay_response)
     VALUES ($1, $2, 'u1', 100, 'USD', '2026-01-01T00:00:00.000Z', '{"status":200,"body":"{}"}')`,
    [profile, depositId],
  );

describe('db migrate on PostgreSQL', () => {
  it('creates every copied table with every column, then has nothing left to do', async () => {
    const url = await server().newDatabase();
    await withClients(url, 1, async ([c]) => {
      const first = await migratePostgres(c!);
      expect(first).toMatchObject({
        from: 0,
        to: PG_LATEST_VERSION,
        applied: ['1 initial', '2 text-search', '3 profile-balance-url-sealed', '4 exchanges-room-for-answers', '5 rare-value-indexes'],
        trigramIndex: { ready: true },
      });
      const again = await migratePostgres(c!);
      expect(again).toMatchObject({ from: PG_LATEST_VERSION, to: PG_LATEST_VERSION, applied: [] });
      for (const table of COPIED_TABLES) {
        const cols = await c!.query<{ column_name: string }>(
          'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
          [table.name],
        );
        expect(cols.rows.map((r) => r.column_name).sort(), table.name).toEqual(columnsOf(table).sort());
      }
      const trigram = await c!.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'exchange_text_trigram'`);
      expect(trigram.rows[0]?.indexdef).toContain('gin_trgm_ops');
      const answers = await c!.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'exchange_text_answer_trigram'`);
      expect(answers.rows[0]?.indexdef).toContain('(answer gin_trgm_ops)');
      expect((await c!.query('SELECT version FROM wager_desk_schema ORDER BY version')).rows).toEqual([
        { version: 1 },
        { version: 2 },
        { version: 3 },
        { version: 4 },
        { version: 5 },
      ]);
      // Half of each page left to the answers' versions of its rows: the update that records an answer
      // stays on the row's page and touches no index.
      const options = await c!.query<{ reloptions: string[] | null }>("SELECT reloptions FROM pg_class WHERE relname = 'exchanges'");
      expect(options.rows[0]?.reloptions).toEqual(['fillfactor=50']);
      // The verdict and kind indexes hold only the rare values, under the very conditions the reads add
      // (a read with another condition could not use them); no per-profile deposit index.
      const indexes = await c!.query<{ indexname: string; indexdef: string }>("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'exchanges'");
      const def = (name: string): string => indexes.rows.find((r) => r.indexname === name)?.indexdef ?? '';
      for (const name of ['exchanges_verdict', 'exchanges_profile_verdict']) expect(def(name)).toMatch(/WHERE \(verdict <> 'valid'::text\)$/);
      for (const name of ['exchanges_kind', 'exchanges_profile_kind'])
        expect(def(name)).toMatch(/WHERE \(kind <> ALL \(ARRAY\['pay'::text, 'results'::text\]\)\)$/);
      expect(RARE_VERDICT).toBe("verdict <> 'valid'");
      expect(RARE_KIND).toBe("kind NOT IN ('pay', 'results')");
      expect(indexes.rows.map((r) => r.indexname)).not.toContain('exchanges_profile_deposit');
    });
  });

  it('lets two processes migrate one database at once: one applies each step, the other finds it done', async () => {
    const url = await server().newDatabase();
    await withClients(url, 2, async ([a, b]) => {
      const reports = await Promise.all([migratePostgres(a!), migratePostgres(b!)]);
      expect(reports.map((r) => r.applied.length).sort()).toEqual([0, PG_LATEST_VERSION]);
      expect(reports.every((r) => r.to === PG_LATEST_VERSION)).toBe(true);
      expect(Number((await a!.query('SELECT count(*) AS n FROM wager_desk_schema')).rows[0].n)).toBe(PG_LATEST_VERSION);
    });
  });

  it('brings a schema-1 database that holds captures to the latest schema, whose text search finds them', async () => {
    const url = await server().newDatabase();
    await withClients(url, 1, async ([c]) => {
      // Schema 1 as a Wager Desk of that version left it, with a capture.
      await c!.query(`CREATE TABLE ${VERSION_TABLE} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      await c!.query(PG_MIGRATIONS[0]!.sql);
      await c!.query(`INSERT INTO ${VERSION_TABLE} (version, name) VALUES (1, 'initial')`);
      await c!.query(
        `INSERT INTO exchanges (direction, kind, origin, at, method, path, req_headers, req_body, req_size, profile)
         VALUES ('inbound', 'pay', 'proxy', '2026-01-01T00:00:00.000Z', 'POST', '/platform/pay', '[]', $1, 18, 'acme')`,
        [Buffer.from('{"note":"Kestrel"}')],
      );
      expect(await migratePostgres(c!)).toMatchObject({
        from: 1,
        to: PG_LATEST_VERSION,
        applied: ['2 text-search', '3 profile-balance-url-sealed', '4 exchanges-room-for-answers', '5 rare-value-indexes'],
      });
      const found = await c!.query(`SELECT count(*)::int AS n FROM exchanges WHERE ${textMatchCondition('$1')}`, [ilikePattern('kestrel')]);
      expect(found.rows).toEqual([{ n: 1 }]);
    });
  });

  it('refuses a database migrated by a newer Wager Desk and leaves it as it was', async () => {
    const url = await server().newDatabase();
    await withClients(url, 1, async ([c]) => {
      await migratePostgres(c!);
      await c!.query(`INSERT INTO wager_desk_schema (version, name) VALUES (99, 'from the future')`);
      await expect(migratePostgres(c!)).rejects.toThrow(/newer Wager Desk \(schema 99; this version knows up to 5\)/);
      expect((await c!.query('SELECT version FROM wager_desk_schema ORDER BY version')).rows).toEqual([
        { version: 1 },
        { version: 2 },
        { version: 3 },
        { version: 4 },
        { version: 5 },
        { version: 99 },
      ]);
    });
  });
});

describe("the sandbox's books on PostgreSQL", () => {
  it('deduct a deposit once per profile: a second record of it is refused by the constraint', async () => {
    const url = await server().newDatabase();
    await withClients(url, 1, async ([c]) => {
      await migratePostgres(c!);
      await deposit(c!, 'acme', 'dep-1');
      await expect(deposit(c!, 'acme', 'dep-1')).rejects.toMatchObject({ code: '23505', constraint: 'sandbox_deposits_once_per_profile' });
      await deposit(c!, 'other', 'dep-1');
      expect(Number((await c!.query('SELECT count(*) AS n FROM sandbox_deposits')).rows[0].n)).toBe(2);
    });
  });

  it('hold when two connections record the same deposit at the same moment: one commits, one is refused', async () => {
    const url = await server().newDatabase();
    await withClients(url, 3, async ([setup, a, b]) => {
      await migratePostgres(setup!);
      // Both open their transaction and write; the second waits on the first's uncommitted key, then fails.
      await a!.query('BEGIN');
      await b!.query('BEGIN');
      await deposit(a!, 'acme', 'dep-race');
      const second = deposit(b!, 'acme', 'dep-race').then(
        () => 'inserted',
        (err: { code?: string }) => err.code,
      );
      await a!.query('COMMIT');
      expect(await second).toBe('23505');
      await b!.query('ROLLBACK');
      expect(Number((await setup!.query(`SELECT count(*) AS n FROM sandbox_deposits WHERE deposit_id = 'dep-race'`)).rows[0].n)).toBe(1);
    });
  });
});
