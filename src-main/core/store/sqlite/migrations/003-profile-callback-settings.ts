// A profile records where its operator mounts the callbacks (NULL: the spec's /platform) and how it
// writes amounts: integer minor units unless told otherwise, which is how most operators store them.
import type { Db } from '../db';

export function up(db: Db): void {
  db.exec(`
    ALTER TABLE profiles ADD COLUMN callback_prefix TEXT;
    ALTER TABLE profiles ADD COLUMN amounts TEXT NOT NULL DEFAULT 'integer' CHECK (amounts IN ('integer', 'decimal'));
  `);
}
