// Numbered migrations, one file each, applied in order, each in its own transaction; PRAGMA
// user_version records the last one applied. A migration is a function of the database (a statement
// list, or whatever a change needs: a copy, a backfill). To change the schema, add the next numbered
// file and append it here; never edit a shipped one. Tables made by a migration are STRICT.
//
// The version only ever grows: the list is checked to be 1, 2, 3... at load; a database from the
// future (a newer Wager Desk wrote it) is refused, never touched; and each step re-reads the version
// inside its transaction, so two processes opening one old database cannot both apply a step.
import type { Db } from '../db';
import * as m001 from './001-initial';
import * as m002 from './002-sandbox-results-answer';
import * as m003 from './003-profile-callback-settings';
import * as m004 from './004-profile-previous-secret';
import * as m005 from './005-exchange-reverified';
import * as m006 from './006-proxy-faults';
import * as m007 from './007-exchange-scheme';
import * as m008 from './008-exchange-profile';
import * as m009 from './009-search-and-saved-requests';
import * as m010 from './010-profile-currency';
import * as m011 from './011-profile-balance-probe';
import * as m012 from './012-text-index-in-background';
import * as m013 from './013-text-index-deletes-without-merges';
import * as m014 from './014-ids-never-reused-and-text-index-retiring';
import * as m015 from './015-rare-value-indexes';
import * as m016 from './016-profile-balance-url-sealed';

export interface Migration {
  version: number;
  name: string;
  up(db: Db): void;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', up: m001.up },
  { version: 2, name: 'sandbox-results-answer', up: m002.up },
  { version: 3, name: 'profile-callback-settings', up: m003.up },
  { version: 4, name: 'profile-previous-secret', up: m004.up },
  { version: 5, name: 'exchange-reverified', up: m005.up },
  { version: 6, name: 'proxy-faults', up: m006.up },
  { version: 7, name: 'exchange-scheme', up: m007.up },
  { version: 8, name: 'exchange-profile', up: m008.up },
  { version: 9, name: 'search-and-saved-requests', up: m009.up },
  { version: 10, name: 'profile-currency', up: m010.up },
  { version: 11, name: 'profile-balance-probe', up: m011.up },
  { version: 12, name: 'text-index-in-background', up: m012.up },
  { version: 13, name: 'text-index-deletes-without-merges', up: m013.up },
  { version: 14, name: 'ids-never-reused-and-text-index-retiring', up: m014.up },
  { version: 15, name: 'rare-value-indexes', up: m015.up },
  { version: 16, name: 'profile-balance-url-sealed', up: m016.up },
];

/** Throws unless the versions run 1, 2, 3... without a gap or a repeat. */
export function checkMonotonic(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migration ${m.name} has version ${m.version}; expected ${i + 1} (versions run 1, 2, 3... in order).`);
  });
}

checkMonotonic(MIGRATIONS);

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export class SchemaFromTheFutureError extends Error {
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(`The database has schema ${found}; this version knows up to ${supported}.`);
    this.name = 'SchemaFromTheFutureError';
  }
}

const versionOf = (db: Db): number => db.pragma('user_version', { simple: true }) as number;

/** Brings the schema from `from` up to LATEST_VERSION, one transaction per step. */
export function migrate(db: Db, from: number = versionOf(db), migrations: readonly Migration[] = MIGRATIONS): void {
  checkMonotonic(migrations);
  const latest = migrations.length;
  if (from > latest) throw new SchemaFromTheFutureError(from, latest);
  for (const m of migrations) {
    if (m.version <= from) continue;
    db.transaction(() => {
      // Another process may have applied this step since `from` was read: then there is nothing to do.
      const now = versionOf(db);
      if (now >= m.version) return;
      if (now !== m.version - 1) throw new Error(`The database is at schema ${now}; migration ${m.version} (${m.name}) needs ${m.version - 1}.`);
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}
