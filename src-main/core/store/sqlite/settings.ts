import type { Db } from './open';

/** Small key-value settings (active profile, sandbox starting balance, proxy defaults). */
export class SettingsStore {
  private readonly getStmt;
  private readonly setStmt;
  private readonly delStmt;

  constructor(db: Db) {
    this.getStmt = db.prepare('SELECT value FROM settings WHERE key = ?').pluck();
    this.setStmt = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.delStmt = db.prepare('DELETE FROM settings WHERE key = ?');
  }

  get(key: string): string | null {
    return (this.getStmt.get(key) as string | undefined) ?? null;
  }

  set(key: string, value: string | null): void {
    if (value === null) this.delStmt.run(key);
    else this.setStmt.run(key, value);
  }
}
