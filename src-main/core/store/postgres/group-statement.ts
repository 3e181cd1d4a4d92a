// One group of the proxy's writes as one PostgreSQL statement (one round trip, atomic on its own): the
// new rows, each older row updated once (its answer, and findings appended as a JSON array's text, so it
// is never read back), the NOTIFY that wakes the desks following the log, and ids drawn for the groups
// after it (spare-ids.ts). One array per column: the statement's text never changes with the group's
// size, so the server plans it once. Each array goes in binary (binary-array.ts): bodies as their bytes.
import type pg from 'pg';
import { EXCHANGE_COLUMNS, type ColumnKind } from '../copy/copied-tables';
import { COMPLETE_COLUMNS, INSERT_COLUMNS, type CompleteColumn, type InsertColumn } from '../rows/exchange-values';
import { binaryArray, type ArrayElement } from './binary-array';
import { pgText } from './pg-text';
import type { BufferedStatements, NewRow } from './row-buffer';

// Each column's array type, from the one list of the exchanges' columns and their kinds (the copy's).
const ELEMENT_OF: Record<ColumnKind, ArrayElement> = { int: 'int8', real: 'float8', flag: 'bool', text: 'text', bytes: 'bytea' };
const elementOf = (column: InsertColumn | CompleteColumn): ArrayElement => ELEMENT_OF[EXCHANGE_COLUMNS[column]!];

const ROW_COLUMNS = [...INSERT_COLUMNS, ...COMPLETE_COLUMNS];

const UPDATE_COLUMNS = COMPLETE_COLUMNS.map((c) => `${c} = CASE WHEN u.finished THEN u.${c} ELSE e.${c} END`).join(',\n    ');
const arrays = (types: readonly string[], from: number): string => types.map((t, i) => `$${from + i}::${t}[]`).join(', ');
const INSERT_TYPES: ArrayElement[] = ['int8', ...ROW_COLUMNS.map(elementOf)];
const UPDATE_TYPES: ArrayElement[] = ['int8', 'bool', ...COMPLETE_COLUMNS.map(elementOf), 'text', 'int4'];
/** The element type of each of groupArrays' arrays, in order. */
const GROUP_TYPES = [...INSERT_TYPES, ...UPDATE_TYPES];
const NEXT_ID = "nextval(pg_get_serial_sequence('exchanges', 'id'))::float8";
const GROUP_SQL = `WITH ins AS (
  INSERT INTO exchanges (id, ${ROW_COLUMNS.join(', ')}) SELECT * FROM unnest(${arrays(INSERT_TYPES, 1)}) RETURNING id
), upd AS (
  UPDATE exchanges AS e SET
    ${UPDATE_COLUMNS},
    findings = CASE WHEN u.more IS NULL THEN e.findings WHEN e.findings IS NULL OR e.findings = '[]' THEN u.more
               ELSE left(e.findings, -1) || ',' || substr(u.more, 2) END,
    error_count = e.error_count + u.errors
  FROM unnest(${arrays(UPDATE_TYPES, INSERT_TYPES.length + 1)}) AS u(id, finished, ${COMPLETE_COLUMNS.join(', ')}, more, errors)
  WHERE e.id = u.id RETURNING e.id
)
SELECT (SELECT count(*) FROM ins)::int AS inserted, array(SELECT id::float8 FROM upd) AS updated,
  pg_notify($${INSERT_TYPES.length + UPDATE_TYPES.length + 1}, $${INSERT_TYPES.length + UPDATE_TYPES.length + 2}) AS notified,
  array(SELECT ${NEXT_ID} FROM generate_series(1, $${INSERT_TYPES.length + UPDATE_TYPES.length + 3})) AS next_ids`;

/**
 * Ids for a group's `count` new rows that the spare ids do not cover, drawn just before it commits. Named,
 * so the server parses it once a connection rather than once a group.
 */
export function reserveIds(count: number): pg.QueryConfig {
  return {
    name: 'wd-reserve-ids',
    text: `SELECT ${NEXT_ID} AS id FROM generate_series(1, $1)`,
    values: [count],
  };
}

/** A column's value as PostgreSQL takes it: SQLite's 0/1 flag as a boolean, NaN as NULL (as SQLite stores it). */
function pgValue(column: InsertColumn | CompleteColumn, value: unknown): unknown {
  if (column === 'truncated') return value === 1 || value === true;
  if (typeof value === 'number' && Number.isNaN(value)) return null;
  return pgText(value);
}

/** One array per column of the new rows: the request's columns, then the answer's (NULL while none came). */
function newRowArrays(rows: readonly NewRow[]): unknown[][] {
  return [
    ...INSERT_COLUMNS.map((c) => rows.map((r) => pgValue(c, r.values[c]))),
    ...COMPLETE_COLUMNS.map((c) => rows.map((r) => (r.finish ? pgValue(c, r.finish[c]) : null))),
  ];
}

/**
 * The group's arrays as JS values, one per column of the statement's two unnests (the new rows', then the
 * updates'), before their binary encoding: what a text parameter would carry.
 */
export function groupArrays(s: BufferedStatements): unknown[][] {
  const updates = s.updates;
  const finished = (c: CompleteColumn): unknown[] => updates.map((u) => (u.finish ? pgValue(c, u.finish[c]) : null));
  return [
    s.ids,
    ...newRowArrays(s.inserts),
    updates.map((u) => u.id),
    updates.map((u) => u.finish !== null),
    ...COMPLETE_COLUMNS.map(finished),
    updates.map((u) => (u.append ? pgText(u.append.findings) : null)),
    updates.map((u) => u.append?.errors ?? 0),
  ];
}

/**
 * The group's statement with its values; `channel`: where its NOTIFY goes (the payload: the highest id it
 * touched); `drawAhead`: how many ids it draws for later groups (its result's `next_ids`).
 */
export function groupStatement(s: BufferedStatements, channel: string, drawAhead = 0): pg.QueryConfig {
  const touched = [...s.ids, ...s.updates.map((u) => u.id)];
  return {
    name: 'wd-commit-group',
    text: GROUP_SQL,
    values: [...groupArrays(s).map((values, i) => binaryArray(GROUP_TYPES[i]!, values)), channel, String(Math.max(...touched)), drawAhead],
  };
}
