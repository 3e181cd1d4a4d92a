// The team's profiles in its PostgreSQL: read whole into each desk's copy (profile-copy.ts), and a
// desk's change written back row by row, in one transaction. The sealed secrets are carried as the
// bytes they are: the key never enters the database.
import type pg from 'pg';
import { quotedColumns, sameRowOrNone, type Row } from '../copy/copy-side';
import { parameter, postgresSide } from '../copy/postgres-side';
import { DeskFailure } from '../../result';
import { byName, PROFILE_COLUMNS, PROFILES_LABEL, PROFILES_TABLE, toProfileRow } from '../copy/profile-row';

/** More profiles than any team keeps: the read is one page. */
const MAX_PROFILES = 100_000;

export interface ProfileChange {
  name: string;
  /** The row as it is now; null: the profile was removed. */
  row: Row | null;
  /** The row as the change found it (null: none): the team's must still be that, or nothing is written. */
  was: Row | null;
  /** The prefix whose unassigned captures become this profile's (a new profile, or a new prefix). */
  adoptPrefix: string | null;
}

export function readTeamProfiles(client: pg.Client): Promise<Row[]> {
  return postgresSide(client, PROFILES_LABEL).readAfter(PROFILES_TABLE, PROFILE_COLUMNS, null, MAX_PROFILES);
}

const COLUMN_LIST = quotedColumns(PROFILE_COLUMNS);
// The rows a change touches, locked until it commits: another desk's write of them waits, or came first.
const LOCK = `SELECT ${COLUMN_LIST} FROM profiles WHERE name = ANY($1::text[]) FOR UPDATE`;

/** A refusal when another desk changed one of the rows after this desk read it: its change would undo theirs. */
async function refuseChangedMeanwhile(client: pg.Client, changes: readonly ProfileChange[]): Promise<void> {
  const found = await client.query<unknown[]>({ text: LOCK, values: [changes.map((c) => c.name)], rowMode: 'array' });
  const now = byName(found.rows.map(toProfileRow));
  for (const change of changes) if (!sameRowOrNone(now.get(change.name) ?? null, change.was)) throw changedMeanwhile(change.name);
}

function changedMeanwhile(name: string): DeskFailure {
  return new DeskFailure(
    'bad-input',
    `Profile "${name}" was changed by another desk meanwhile: nothing was saved. Save again (the desk reads the team's profiles first).`,
  );
}

const VALUES = `(${COLUMN_LIST}) VALUES (${PROFILE_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;
// A row the change found: locked (LOCK), so replacing it is safe.
const REPLACE = `INSERT INTO profiles ${VALUES}
  ON CONFLICT (name) DO UPDATE SET ${PROFILE_COLUMNS.filter((c) => c !== 'name')
    .map((c) => `"${c}" = EXCLUDED."${c}"`)
    .join(', ')}`;
// A row the change did not find: there is nothing to lock, and another desk may be creating it now. Its
// insert waits for theirs to end, and then finds the name taken.
const CREATE = `INSERT INTO profiles ${VALUES} ON CONFLICT (name) DO NOTHING`;

// The rule the desk's own store applies (profiles.ts adoptUnassigned): prefixes do not overlap, so the
// captures under this one that no profile claimed are this profile's.
const ADOPT = `UPDATE exchanges SET profile = $1
  WHERE profile IS NULL AND direction = 'inbound' AND (path = $2 OR left(path, length($3)) = $3)`;

/** Writes a desk's change in one transaction, refused when the team's rows are no longer those it started from. */
export async function writeTeamProfiles(client: pg.Client, changes: readonly ProfileChange[]): Promise<void> {
  await client.query('BEGIN');
  try {
    await refuseChangedMeanwhile(client, changes);
    for (const change of changes) {
      if (change.row === null) {
        await client.query('DELETE FROM profiles WHERE name = $1', [change.name]);
        continue;
      }
      const row = change.row;
      const values = PROFILE_COLUMNS.map((c, i) => parameter(PROFILES_LABEL, PROFILES_TABLE, c, PROFILES_TABLE.columns[c]!, row[i]!));
      const written = await client.query(change.was === null ? CREATE : REPLACE, values);
      if (written.rowCount !== 1) throw changedMeanwhile(change.name);
      if (change.adoptPrefix !== null) {
        const prefix = change.adoptPrefix;
        await client.query(ADOPT, [change.name, prefix, prefix.endsWith('/') ? prefix : `${prefix}/`]);
      }
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
