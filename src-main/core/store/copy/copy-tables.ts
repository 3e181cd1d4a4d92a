// Copies the log from one database to another, whole and exact, table by table in key order, in batches
// that each commit on their own. A copy that stops (a failure, a Ctrl-C, a lost connection) is resumed by
// running it again: each table continues after the highest key the target holds. What the target holds
// must be the start of the source's table (the same number of rows up to that key, and the same first
// and last rows, value for value); anything else is another log, and the copy refuses before it writes
// anything: it fills an empty database or finishes its own copy, it never merges two logs.
import { DeskFailure } from '../../result';
import { COPIED_TABLES, columnsOf, type CopiedTable } from './copied-tables';
import { sameRow, type CopySide, type Row } from './copy-side';
import { describeKey, keyOf } from './key-order';

export const DEFAULT_BATCH_ROWS = 200;

export interface CopyProgress {
  table: string;
  /** Rows copied by this run so far, over every table. */
  copied: number;
  /** Rows this run has to copy, over every table. */
  total: number;
}

export interface TableCopy {
  table: string;
  copied: number;
  /** Rows the target held already (from an earlier run of the same copy). */
  alreadyThere: number;
}

export interface CopyOutcome {
  tables: TableCopy[];
  copied: number;
  alreadyThere: number;
  /** False when the run stopped at stopAfterBatches before the end. */
  complete: boolean;
}

export interface CopyOptions {
  /** Rows per batch (one transaction on the target); bodies make a row up to a few MiB. */
  batchRows?: number;
  onProgress?: (progress: CopyProgress) => void;
  /** Stops after this many batches, as an interrupted run would (tests of resuming). */
  stopAfterBatches?: number;
  tables?: readonly CopiedTable[];
}

interface TablePlan {
  table: CopiedTable;
  columns: string[];
  /** The key after which the copy continues; null: from the first row. */
  after: Row | null;
  alreadyThere: number;
  toCopy: number;
}

async function checkColumns(side: CopySide, table: CopiedTable): Promise<void> {
  const found = await side.columnNames(table.name);
  if (found === null) throw new DeskFailure('bad-input', `${side.label} has no table ${table.name}.`);
  const known = new Set(columnsOf(table));
  const unknown = found.filter((c) => !known.has(c));
  if (unknown.length > 0) {
    throw new DeskFailure(
      'bad-input',
      `${side.label}: ${table.name} has column${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} that this Wager Desk cannot copy; nothing was copied.`,
    );
  }
  const missing = [...known].filter((c) => !found.includes(c));
  if (missing.length > 0) throw new DeskFailure('bad-input', `${side.label}: ${table.name} lacks ${missing.join(', ')}; is its schema up to date?`);
}

function conflict(target: CopySide, table: CopiedTable, detail: string): DeskFailure {
  return new DeskFailure(
    'bad-input',
    `${target.label} already holds ${table.name} rows that are not this copy's (${detail}). Nothing was copied: db copy fills an empty database, ` +
      'or resumes its own interrupted copy; it never merges two logs. Copy into an empty database instead.',
  );
}

async function plan(source: CopySide, target: CopySide, table: CopiedTable): Promise<TablePlan> {
  await checkColumns(source, table);
  await checkColumns(target, table);
  const columns = columnsOf(table);
  const sourceCount = await source.count(table);
  const last = await target.lastRow(table, columns);
  if (last === null) return { table, columns, after: null, alreadyThere: 0, toCopy: sourceCount };
  const lastKey = keyOf(table, columns, last);
  const targetCount = await target.count(table);
  const sourceUpTo = await source.countUpTo(table, lastKey);
  if (sourceUpTo !== targetCount) {
    throw conflict(target, table, `it has ${targetCount} up to ${describeKey(lastKey)}, the source ${sourceUpTo}`);
  }
  const [first] = await target.readAfter(table, columns, null, 1);
  for (const row of [first!, last]) {
    const key = keyOf(table, columns, row);
    const theirs = await source.rowByKey(table, columns, key);
    if (theirs === null || !sameRow(theirs, row)) throw conflict(target, table, `${describeKey(key)} differs`);
  }
  return { table, columns, after: lastKey, alreadyThere: targetCount, toCopy: sourceCount - sourceUpTo };
}

export async function copyTables(source: CopySide, target: CopySide, options: CopyOptions = {}): Promise<CopyOutcome> {
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  const plans: TablePlan[] = [];
  for (const table of options.tables ?? COPIED_TABLES) plans.push(await plan(source, target, table));
  const total = plans.reduce((n, p) => n + p.toCopy, 0);
  let copied = 0;
  let batches = 0;
  const tables: TableCopy[] = [];
  const outcome = (complete: boolean): CopyOutcome => ({
    tables,
    copied,
    alreadyThere: plans.reduce((n, p) => n + p.alreadyThere, 0),
    complete,
  });
  for (const p of plans) {
    const done: TableCopy = { table: p.table.name, copied: 0, alreadyThere: p.alreadyThere };
    tables.push(done);
    options.onProgress?.({ table: p.table.name, copied, total });
    let after = p.after;
    for (;;) {
      if (options.stopAfterBatches !== undefined && batches >= options.stopAfterBatches) return outcome(false);
      const rows = await source.readAfter(p.table, p.columns, after, batchRows);
      if (rows.length === 0) break;
      await target.insert(p.table, p.columns, rows);
      batches += 1;
      done.copied += rows.length;
      copied += rows.length;
      after = keyOf(p.table, p.columns, rows[rows.length - 1]!);
      options.onProgress?.({ table: p.table.name, copied, total });
      if (rows.length < batchRows) break;
    }
  }
  return outcome(true);
}
