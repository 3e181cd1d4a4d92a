// One end of a copy: the tables of one database, read and written in the copy's canonical values. Each
// engine's side converts its own values to these and back, so a row read from either compares exactly.
import type { ColumnKind, CopiedTable } from './copied-tables';

/** A value as the copy carries it: int and flag as bigint, real as number, text as string, bytes as Buffer. */
export type Value = bigint | number | string | Buffer | null;
/** One row's values, in the order of the columns asked for. */
export type Row = Value[];

export interface CopySide {
  /** What to call this side in messages (a file path, or a URL without its password). */
  readonly label: string;
  /** The table's columns, or null where the database has no such table. */
  columnNames(table: string): Promise<string[] | null>;
  count(table: CopiedTable): Promise<number>;
  /** How many rows have a key at or before `key`, in key order. */
  countUpTo(table: CopiedTable, key: Row): Promise<number>;
  /** The rows after `after` (null: from the first), in key order, at most `limit`. */
  readAfter(table: CopiedTable, columns: readonly string[], after: Row | null, limit: number): Promise<Row[]>;
  /** The row with this key, or null. */
  rowByKey(table: CopiedTable, columns: readonly string[], key: Row): Promise<Row | null>;
  /** The row with the highest key, or null for an empty table. */
  lastRow(table: CopiedTable, columns: readonly string[]): Promise<Row | null>;
  /** Writes the rows in one transaction: all of them or none. */
  insert(table: CopiedTable, columns: readonly string[], rows: readonly Row[]): Promise<void>;
}

export function sameValue(a: Value, b: Value): boolean {
  if (Buffer.isBuffer(a) || Buffer.isBuffer(b)) return Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b);
  return Object.is(a, b);
}

/** Column names quoted for SQL, comma-separated: the same in SQLite and PostgreSQL. */
export const quotedColumns = (columns: readonly string[]): string => columns.map((c) => `"${c}"`).join(', ');

export const sameRow = (a: Row, b: Row): boolean => a.length === b.length && a.every((v, i) => sameValue(v, b[i]!));

/** Two rows that may be missing (null): both missing, or both there and the same. */
export const sameRowOrNone = (a: Row | null, b: Row | null): boolean => (a === null || b === null ? a === b : sameRow(a, b));

/** A value of the wrong kind for its column: the copy stops rather than change it. */
export class UnexpectedValueError extends Error {
  constructor(side: string, table: string, column: string, found: unknown) {
    super(`${side}: ${table}.${column} holds a ${found === null ? 'null' : typeof found} value this copy cannot carry exactly.`);
    this.name = 'UnexpectedValueError';
  }
}

/**
 * A value read from either side in its canonical form, or UnexpectedValueError. A flag is 0 or 1 in
 * SQLite and a boolean in PostgreSQL; both become 0n / 1n.
 */
export function canonical(label: string, table: CopiedTable, column: string, kind: ColumnKind, v: unknown): Value {
  if (v === null) return null;
  switch (kind) {
    case 'flag':
    case 'int':
      // SQLite keeps a flag as an integer.
      if (kind === 'flag' && typeof v === 'boolean') return v ? 1n : 0n;
      if (typeof v === 'bigint') return v;
      if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
      break;
    case 'real':
      if (typeof v === 'number') return v;
      break;
    case 'text':
      if (typeof v === 'string') return v;
      break;
    case 'bytes':
      if (Buffer.isBuffer(v)) return v;
      break;
  }
  throw new UnexpectedValueError(label, table.name, column, v);
}
