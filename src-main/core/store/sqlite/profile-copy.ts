// A team's profiles as this desk holds them: an in-memory SQLite database with the desk's own schema, so
// the profile store works on it unchanged and its readers stay synchronous (the proxy routes and judges
// every callback without a round trip to the team's database). The team's rows are the truth: the copy
// is replaced whole from them, and what a change here touched is written there (desk/team-profiles.ts).
import { quotedColumns, type Row } from '../copy/copy-side';
import { PROFILE_COLUMNS, toProfileRow } from '../copy/profile-row';
import type { Db } from './db';

export interface ProfileCopy {
  /** Every profile's row, in the copy's canonical values. */
  rows(): Row[];
  row(name: string): Row | null;
  /** Replaces every row at once (one transaction: no reader sees the copy half replaced). */
  replace(rows: readonly Row[]): void;
}

export function profileCopy(db: Db): ProfileCopy {
  const columns = quotedColumns(PROFILE_COLUMNS);
  const all = db.prepare(`SELECT ${columns} FROM profiles ORDER BY name`).safeIntegers(true).raw(true);
  const one = db.prepare(`SELECT ${columns} FROM profiles WHERE name = ?`).safeIntegers(true).raw(true);
  const insert = db.prepare(`INSERT INTO profiles (${columns}) VALUES (${PROFILE_COLUMNS.map(() => '?').join(', ')})`);
  const clear = db.prepare('DELETE FROM profiles');
  const replace = db.transaction((rows: readonly Row[]) => {
    clear.run();
    for (const row of rows) insert.run(...row);
  });
  return {
    rows: () => (all.all() as unknown[][]).map(toProfileRow),
    row: (name) => {
      const raw = one.get(name) as unknown[] | undefined;
      return raw === undefined ? null : toProfileRow(raw);
    },
    replace: (rows) => replace.immediate(rows),
  };
}
