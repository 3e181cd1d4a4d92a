// A capture judged again with the secrets a profile has now keeps when, with what (profile name and
// secret fingerprint, never the secret) and the verdict it was first recorded with.
import type { Db } from '../db';

export function up(db: Db): void {
  db.exec(`
    ALTER TABLE exchanges ADD COLUMN reverified_at TEXT;
    ALTER TABLE exchanges ADD COLUMN reverified_with TEXT;
    ALTER TABLE exchanges ADD COLUMN original_verdict TEXT;
  `);
}
