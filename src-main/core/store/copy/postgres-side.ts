// The PostgreSQL end of a copy. The connection reads bigint as BigInt (connectPostgres's bigints), every
// value is sent as its exact text (a double by its shortest round-trip form, -0 included), and a batch
// written to an identity table moves the table's id sequence past the ids it wrote, in its transaction.
import type pg from 'pg';
import type { ColumnKind, CopiedTable } from './copied-tables';
import { DeskFailure } from '../../result';
import { canonical, quotedColumns, UnexpectedValueError, type CopySide, type Row, type Value } from './copy-side';
import { describeKey, keyOf } from './key-order';

/** PostgreSQL's limit on a statement's parameters. */
const MAX_PARAMETERS = 65_535;

/** A canonical value as a query parameter of its column's type (the copy's, and the team profiles' writes). */
export function parameter(label: string, table: CopiedTable, column: string, kind: ColumnKind, v: Value): unknown {
  if (v === null) return null;
  if (kind === 'flag') {
    if (v === 0n || v === 1n) return v === 1n;
    throw new UnexpectedValueError(label, table.name, column, v);
  }
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string' && v.includes('\u0000')) {
    throw new Error(`${label}: ${table.name}.${column} holds a NUL character, which PostgreSQL text cannot hold.`);
  }
  return v;
}

const marks = (from: number, n: number): string => Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');

export function postgresSide(client: pg.Client, label: string): CopySide {
  const params = (table: CopiedTable, columns: readonly string[], row: Row): unknown[] =>
    row.map((v, i) => parameter(label, table, columns[i]!, table.columns[columns[i]!]!, v));
  /** A row's parameters; a value PostgreSQL cannot hold names the row it is in. */
  const rowParams = (table: CopiedTable, columns: readonly string[], row: Row): unknown[] => {
    try {
      return params(table, columns, row);
    } catch (err) {
      throw new DeskFailure('bad-input', `${(err as Error).message} (row ${describeKey(keyOf(table, columns, row))}); nothing of this batch was written.`);
    }
  };
  const toRow = (table: CopiedTable, columns: readonly string[], raw: unknown[]): Row =>
    raw.map((v, i) => canonical(label, table, columns[i]!, table.columns[columns[i]!]!, v));
  const rows = async (sql: string, values: unknown[]): Promise<unknown[][]> => (await client.query<unknown[]>({ text: sql, values, rowMode: 'array' })).rows;
  const keyList = (t: CopiedTable): string => quotedColumns(t.key);
  return {
    label,
    async columnNames(table) {
      const r = await client.query<{ column_name: string }>(
        'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position',
        [table],
      );
      return r.rows.length === 0 ? null : r.rows.map((c) => c.column_name);
    },
    async count(table) {
      const r = await rows(`SELECT count(*) FROM "${table.name}"`, []);
      return Number(r[0]![0]);
    },
    async countUpTo(table, key) {
      const r = await rows(`SELECT count(*) FROM "${table.name}" WHERE (${keyList(table)}) <= (${marks(1, key.length)})`, params(table, table.key, key));
      return Number(r[0]![0]);
    },
    async readAfter(table, columns, after, limit) {
      const where = after === null ? '' : `WHERE (${keyList(table)}) > (${marks(1, after.length)})`;
      const values = after === null ? [] : params(table, table.key, after);
      const r = await rows(`SELECT ${quotedColumns(columns)} FROM "${table.name}" ${where} ORDER BY ${keyList(table)} LIMIT $${values.length + 1}`, [
        ...values,
        limit,
      ]);
      return r.map((raw) => toRow(table, columns, raw));
    },
    async rowByKey(table, columns, key) {
      const r = await rows(
        `SELECT ${quotedColumns(columns)} FROM "${table.name}" WHERE (${keyList(table)}) = (${marks(1, key.length)})`,
        params(table, table.key, key),
      );
      return r[0] === undefined ? null : toRow(table, columns, r[0]);
    },
    async lastRow(table, columns) {
      const order = table.key.map((k) => `"${k}" DESC`).join(', ');
      const r = await rows(`SELECT ${quotedColumns(columns)} FROM "${table.name}" ORDER BY ${order} LIMIT 1`, []);
      return r[0] === undefined ? null : toRow(table, columns, r[0]);
    },
    async insert(table, columns, batch) {
      const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
      await client.query('BEGIN');
      try {
        for (let at = 0; at < batch.length; at += perStatement) {
          const chunk = batch.slice(at, at + perStatement);
          const values = chunk.flatMap((row) => rowParams(table, columns, row));
          const tuples = chunk.map((_, i) => `(${marks(i * columns.length + 1, columns.length)})`).join(', ');
          await client.query(`INSERT INTO "${table.name}" (${quotedColumns(columns)}) VALUES ${tuples}`, values);
        }
        if (table.identity) {
          await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT max(id) FROM "${table.name}"))`, [table.name]);
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    },
  };
}
