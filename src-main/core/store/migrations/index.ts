// Numbered migrations, applied in order, each in its own transaction; PRAGMA user_version records the
// last one applied. To change the schema, add a file and append it here; never edit a shipped one.
import * as m001 from './001-initial';

export interface Migration {
  version: number;
  up: string;
}

export const MIGRATIONS: readonly Migration[] = [{ version: 1, up: m001.up }];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
