// A table's secondary indexes dropped before a bulk write and made again after it, from the definitions
// each engine reports for itself (sqlite_master.sql, pg_indexes.indexdef): a b-tree built once from
// sorted rows costs a fraction of one kept up row by row, and past a few million rows the row-by-row
// upkeep is random I/O. Indexes backing a constraint (primary keys, unique constraints) stay.
import type pg from 'pg';
import type { Db } from '../../src-main/core/store/sqlite/open';

export interface SetAside {
  names: string[];
  /** Makes every dropped index again, with its own definition. */
  restore(): Promise<void>;
}

export function setAsideSqliteIndexes(db: Db, table: string): SetAside {
  const defs = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name").all(table) as Array<{
    name: string;
    sql: string;
  }>;
  for (const d of defs) db.exec(`DROP INDEX "${d.name}"`);
  return {
    names: defs.map((d) => d.name),
    restore: async () => {
      // Between two builds the event loop runs: another engine's work waiting on it goes on meanwhile.
      for (const d of defs) (db.exec(d.sql), await new Promise(setImmediate));
    },
  };
}

/**
 * `clients`: connections to build the indexes on, one index each at a time (the engine may add parallel
 * workers of its own). `memory`: maintenance_work_mem for the builds.
 */
export async function setAsidePostgresIndexes(clients: pg.Client[], table: string, memory = '1GB'): Promise<SetAside> {
  const first = clients[0]!;
  const defs = (
    await first.query<{ name: string; def: string }>(
      `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes AS i
        WHERE i.schemaname = current_schema() AND i.tablename = $1
          AND NOT EXISTS (SELECT 1 FROM pg_constraint AS c WHERE c.conindid = to_regclass(quote_ident(i.indexname)))
        ORDER BY i.indexname`,
      [table],
    )
  ).rows;
  for (const d of defs) await first.query(`DROP INDEX "${d.name}"`);
  return {
    names: defs.map((d) => d.name),
    restore: async () => {
      const queue = [...defs];
      await Promise.all(
        clients.map(async (c) => {
          // Set in the build's own message: this thread may be busy when the SET's answer comes.
          for (let d = queue.shift(); d; d = queue.shift()) await c.query(`SET maintenance_work_mem = '${memory}'; ${d.def}; RESET maintenance_work_mem`);
        }),
      );
    },
  };
}

/**
 * A table's foreign keys dropped and added again (validated in one pass over the table), from
 * pg_get_constraintdef. Rows written on several connections at once may name a row whose own batch,
 * on another connection, has not committed yet: checked row by row, such a write fails.
 */
export async function setAsidePostgresForeignKeys(client: pg.Client, table: string): Promise<SetAside> {
  const defs = (
    await client.query<{ name: string; def: string }>(
      `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'f' ORDER BY conname`,
      [table],
    )
  ).rows;
  for (const d of defs) await client.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${d.name}"`);
  return {
    names: defs.map((d) => d.name),
    restore: async () => {
      for (const d of defs) await client.query(`ALTER TABLE "${table}" ADD CONSTRAINT "${d.name}" ${d.def}`);
    },
  };
}
