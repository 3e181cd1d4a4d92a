// A table's key within its column list: where the key's values sit in a row, so that the copy can walk
// a table in key order and resume after a key.
import type { CopiedTable } from './copied-tables';
import type { Row } from './copy-side';

export function keyOf(table: CopiedTable, columns: readonly string[], row: Row): Row {
  return table.key.map((k) => {
    const i = columns.indexOf(k);
    if (i < 0) throw new Error(`The copy of ${table.name} reads no ${k}.`);
    return row[i]!;
  });
}

/** A key as people read it: `42`, or `acme / dep-1`. */
export const describeKey = (key: Row): string => key.map((v) => String(v)).join(' / ');
