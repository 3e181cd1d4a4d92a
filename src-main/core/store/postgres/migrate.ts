// Brings a PostgreSQL database's schema up to PG_LATEST_VERSION. Everything happens in one transaction
// that first takes a transaction-level advisory lock: two processes migrating one database at once
// queue on the lock, and the second finds the work done (it re-reads the version after the lock). A
// database from a newer Wager Desk is refused and left untouched. The role needs CREATE on the schema
// (the tables are made in the first schema of its search_path, `public` by default).
import type pg from 'pg';
import { DeskFailure } from '../../result';
import { PG_LATEST_VERSION, PG_MIGRATIONS } from './migrations';

/** The advisory lock's key: any fixed number, the same in every Wager Desk ("WDSK"). */
const MIGRATION_LOCK = 0x5744534b;

export const VERSION_TABLE = 'wager_desk_schema';

export interface PgMigrateReport {
  /** The version found (0: a database the desk had not used). */
  from: number;
  to: number;
  /** The steps applied by this run, as "N name". */
  applied: string[];
  /** Whether search has its trigram index, and if not, why. */
  trigramIndex: { ready: true } | { ready: false; reason: string };
}

/** The schema version recorded in the database; 0 without the version table. */
export async function pgSchemaVersion(client: pg.Client): Promise<number> {
  const exists = await client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [VERSION_TABLE]);
  if (exists.rows[0]?.t == null) return 0;
  const found = await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${VERSION_TABLE}`);
  return found.rows[0]?.v ?? 0;
}

export function tooNew(found: number): DeskFailure {
  return new DeskFailure(
    'bad-input',
    `The database was migrated by a newer Wager Desk (schema ${found}; this version knows up to ${PG_LATEST_VERSION}). It was left untouched: update Wager Desk.`,
  );
}

/** Refuses a database whose schema is not this version's, saying what to do (`label` names it, without a password). */
export async function requireCurrentSchema(client: pg.Client, label: string): Promise<void> {
  const found = await pgSchemaVersion(client);
  if (found > PG_LATEST_VERSION) throw tooNew(found);
  if (found < PG_LATEST_VERSION) {
    const what = found === 0 ? 'has no Wager Desk schema' : `is at schema ${found} (this version: ${PG_LATEST_VERSION})`;
    throw new DeskFailure('bad-input', `${label} ${what}: run wager-desk db migrate --database URL first.`);
  }
}

/**
 * SQLSTATEs of a statement that names what the database does not have: a table (undefined_table), a
 * column (undefined_column) or a function (undefined_function). On a database the desk reads, they mean its
 * schema is not this version's, which requireCurrentSchema then says in words.
 */
const MISSING_OBJECT = new Set(['42P01', '42703', '42883']);

export function isMissingSchemaObject(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && MISSING_OBJECT.has(code);
}

/**
 * Search's trigram index, where pg_trgm can be had. pg_trgm is a trusted extension (PostgreSQL 13 and
 * later): a role with CREATE on the database may install it; otherwise someone who may installs it once
 * (`CREATE EXTENSION pg_trgm`) and the next migrate adds the index. Without it, search scans the rows.
 */
async function ensureTrigramIndex(client: pg.Client): Promise<PgMigrateReport['trigramIndex']> {
  await client.query('SAVEPOINT trigram');
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await client.query('CREATE INDEX IF NOT EXISTS exchange_text_trigram ON exchange_text USING gin (text gin_trgm_ops)');
    // The answer's text (schema 2 on): a search is an OR of the two columns, one bitmap each.
    await client.query('CREATE INDEX IF NOT EXISTS exchange_text_answer_trigram ON exchange_text USING gin (answer gin_trgm_ops)');
    await client.query('RELEASE SAVEPOINT trigram');
    return { ready: true };
  } catch (err) {
    await client.query('ROLLBACK TO SAVEPOINT trigram');
    return { ready: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

export async function migratePostgres(client: pg.Client): Promise<PgMigrateReport> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${VERSION_TABLE} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const from = await pgSchemaVersion(client);
    if (from > PG_LATEST_VERSION) throw tooNew(from);
    const applied: string[] = [];
    for (const m of PG_MIGRATIONS) {
      if (m.version <= from) continue;
      await client.query(m.sql);
      await client.query(`INSERT INTO ${VERSION_TABLE} (version, name) VALUES ($1, $2)`, [m.version, m.name]);
      applied.push(`${m.version} ${m.name}`);
    }
    const trigramIndex = await ensureTrigramIndex(client);
    await client.query('COMMIT');
    return { from, to: PG_LATEST_VERSION, applied, trigramIndex };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
