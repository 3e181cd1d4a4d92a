import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ExchangeSummary } from '../../shared/model';
import { ExchangeStore } from './exchanges';
import { openDatabase, type Db } from './open';
import { ProfileStore } from './profiles';
import { ReportStore } from './reports';
import { SecretBox } from './secret-box';
import { SettingsStore } from './settings';

export { DatabaseTooNewError, openDatabase, type Db } from './open';
export { ExchangeStore, type NewExchange, type ExchangeCompletion } from './exchanges';
export { ProfileStore, ProfileError, type ProfileSecrets } from './profiles';
export { ReportStore } from './reports';
export { SettingsStore } from './settings';
export { SecretBox } from './secret-box';

export const DATABASE_FILE = 'wager-desk.sqlite';
export const KEY_FILE = 'secrets.key';

export interface Store {
  readonly dir: string;
  readonly db: Db;
  readonly exchanges: ExchangeStore;
  readonly profiles: ProfileStore;
  readonly settings: SettingsStore;
  readonly reports: ReportStore;
  close(): void;
}

export interface StoreOptions {
  nativeBinding?: string;
  onExchange?: (summary: ExchangeSummary) => void;
}

/** Opens the data directory: the database and the key file that seals its secrets. */
export function openStore(dir: string, options: StoreOptions = {}): Store {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const box = SecretBox.fromKeyFile(join(dir, KEY_FILE));
  const db = openDatabase(join(dir, DATABASE_FILE), options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  const settings = new SettingsStore(db);
  return {
    dir,
    db,
    exchanges: new ExchangeStore(db, options.onExchange),
    profiles: new ProfileStore(db, box, settings),
    settings,
    reports: new ReportStore(db),
    close: () => db.close(),
  };
}
