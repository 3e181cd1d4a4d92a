// PostgreSQL's schema versions, numbered like SQLite's but a list of their own: version 1 already holds
// everything SQLite reached in eleven steps. To change the schema, add the next numbered file and append
// it here; never edit a shipped one. Each step is SQL run inside migrate's one transaction.
import * as m001 from './001-initial';
import * as m002 from './002-text-search';
import * as m003 from './003-profile-balance-url-sealed';
import * as m004 from './004-exchanges-room-for-answers';
import * as m005 from './005-rare-value-indexes';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  { version: 1, name: 'initial', sql: m001.SQL },
  { version: 2, name: 'text-search', sql: m002.SQL },
  { version: 3, name: 'profile-balance-url-sealed', sql: m003.SQL },
  { version: 4, name: 'exchanges-room-for-answers', sql: m004.SQL },
  { version: 5, name: 'rare-value-indexes', sql: m005.SQL },
];

PG_MIGRATIONS.forEach((m, i) => {
  if (m.version !== i + 1) throw new Error(`PostgreSQL migration ${m.name} has version ${m.version}; expected ${i + 1}.`);
});

export const PG_LATEST_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]!.version;
