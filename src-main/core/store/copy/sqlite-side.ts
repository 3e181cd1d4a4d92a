// The SQLite end of a copy: the data directory's database. Integers are read as BigInt (safeIntegers), so
// every 64-bit value survives; text keys compare as SQLite's BINARY, the byte order PostgreSQL's "C" has.
import type { Db } from '../sqlite/db';
import type { CopiedTable } from './copied-tables';
import { canonical, quotedColumns, type CopySide, type Row } from './copy-side';

const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

export function sqliteSide(db: Db, label: string): CopySide {
  const toRow = (table: CopiedTable, columns: readonly string[], raw: unknown[]): Row =>
    raw.map((v, i) => canonical(label, table, columns[i]!, table.columns[columns[i]!]!, v));
  const select = (sql: string) => db.prepare(sql).safeIntegers(true).raw(true);
  const keyList = (t: CopiedTable): string => quotedColumns(t.key);
  return {
    label,
    async columnNames(table) {
      const rows = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[];
      return rows.length === 0 ? null : rows;
    },
    async count(table) {
      return Number(db.prepare(`SELECT count(*) FROM "${table.name}"`).pluck().get());
    },
    async countUpTo(table, key) {
      return Number(
        db
          .prepare(`SELECT count(*) FROM "${table.name}" WHERE (${keyList(table)}) <= (${marks(key.length)})`)
          .pluck()
          .get(...key),
      );
    },
    async readAfter(table, columns, after, limit) {
      const where = after === null ? '' : `WHERE (${keyList(table)}) > (${marks(after.length)})`;
      const rows = select(`SELECT ${quotedColumns(columns)} FROM "${table.name}" ${where} ORDER BY ${keyList(table)} LIMIT ?`).all(
        ...(after ?? []),
        limit,
      ) as unknown[][];
      return rows.map((r) => toRow(table, columns, r));
    },
    async rowByKey(table, columns, key) {
      const r = select(`SELECT ${quotedColumns(columns)} FROM "${table.name}" WHERE (${keyList(table)}) = (${marks(key.length)})`).get(...key) as
        unknown[] | undefined;
      return r === undefined ? null : toRow(table, columns, r);
    },
    async lastRow(table, columns) {
      const order = table.key.map((k) => `"${k}" DESC`).join(', ');
      const r = select(`SELECT ${quotedColumns(columns)} FROM "${table.name}" ORDER BY ${order} LIMIT 1`).get() as unknown[] | undefined;
      return r === undefined ? null : toRow(table, columns, r);
    },
    async insert(table, columns, rows) {
      const stmt = db.prepare(`INSERT INTO "${table.name}" (${quotedColumns(columns)}) VALUES (${marks(columns.length)})`);
      db.transaction(() => {
        for (const row of rows) stmt.run(...row);
      }).immediate();
    },
  };
}
