import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ExchangeSummary } from '../../shared/model';
import { ExchangeStore } from './exchanges';
import { openDatabase, type Db } from './open';
import { explainOpenFailure } from './open-errors';
import { ProfileStore } from './profiles';
import { ReportStore } from './reports';
import { SecretBox, type SealedValue } from './secret-box';
import { SettingsStore } from './settings';

export { DatabaseTooNewError, openDatabase, type Db } from './open';
export { DataDirError, type DataDirProblem } from './open-errors';
export { ExchangeStore, type NewExchange, type ExchangeCompletion } from './exchanges';
export { ProfileStore, type ProfileSecrets } from './profiles';
export { ReportStore } from './reports';
export { SettingsStore } from './settings';
export { SecretBox, SecretKeyError, type KeyProblem } from './secret-box';

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

function sealedValues(db: Db): SealedValue[] {
  return db
    .prepare('SELECT name AS profile, secret_enc AS sealed FROM profiles WHERE secret_enc IS NOT NULL UNION ALL SELECT name, api_key_enc FROM profiles WHERE api_key_enc IS NOT NULL')
    .all() as SealedValue[];
}

/** Opens the data directory: the database and the key file that seals its secrets. */
export function openStore(dir: string, options: StoreOptions = {}): Store {
  let db: Db | undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // SQLite would open a database it may not write read-only without a word (and leave -wal/-shm files
    // behind): every capture would fail later. Refuse now, before anything is created or changed.
    accessSync(dir, constants.W_OK);
    if (existsSync(join(dir, DATABASE_FILE))) accessSync(join(dir, DATABASE_FILE), constants.W_OK);
    db = openDatabase(join(dir, DATABASE_FILE), options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    const opened = db;
    // The key is read when a secret is first needed: commands that need none (captures, show) work without it.
    const box = SecretBox.forKeyFile(join(dir, KEY_FILE), () => sealedValues(opened));
    const settings = new SettingsStore(opened);
    return {
      dir,
      db: opened,
      exchanges: new ExchangeStore(opened, options.onExchange),
      profiles: new ProfileStore(opened, box, settings),
      settings,
      reports: new ReportStore(opened),
      close: () => opened.close(),
    };
  } catch (err) {
    // A damaged page can surface only when the stores prepare their statements: close what was opened.
    if (db?.open) db.close();
    throw explainOpenFailure(err, dir, join(dir, DATABASE_FILE));
  }
}
