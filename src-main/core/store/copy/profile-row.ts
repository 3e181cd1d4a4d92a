// A profiles row as both engines hold it, in the copy's canonical values: a team's profiles are read from
// PostgreSQL into the desk's in-memory copy (sqlite/profile-copy.ts) and written back row by row.
import { COPIED_TABLES } from './copied-tables';
import { canonical, type Row } from './copy-side';

export const PROFILES_TABLE = COPIED_TABLES.find((t) => t.name === 'profiles')!;
export const PROFILE_COLUMNS: readonly string[] = Object.keys(PROFILES_TABLE.columns);
const PREFIX_AT = PROFILE_COLUMNS.indexOf('callback_prefix');
const NAME_AT = PROFILE_COLUMNS.indexOf('name');
/** How the team's profiles are named in an error about one of their values. */
export const PROFILES_LABEL = 'the team profiles';

/** A row's callback prefix (null: the default). */
export const prefixOf = (row: Row): string | null => row[PREFIX_AT] as string | null;

/** Rows by their profile's name. */
export const byName = (rows: readonly Row[]): Map<string, Row> => new Map(rows.map((r) => [r[NAME_AT] as string, r]));

/** A profiles row read from either engine (its columns in PROFILE_COLUMNS' order), in the copy's canonical values. */
export const toProfileRow = (raw: unknown[]): Row =>
  raw.map((v, i) => canonical(PROFILES_LABEL, PROFILES_TABLE, PROFILE_COLUMNS[i]!, PROFILES_TABLE.columns[PROFILE_COLUMNS[i]!]!, v));
