// Numbered migrations, applied in order, each in its own transaction; PRAGMA user_version records the
// last one applied. To change the schema, add a file and append it here; never edit a shipped one.
import * as m001 from './001-initial';
import * as m002 from './002-sandbox-results-answer';
import * as m003 from './003-profile-callback-settings';

export interface Migration {
  version: number;
  up: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, up: m001.up },
  { version: 2, up: m002.up },
  { version: 3, up: m003.up },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
