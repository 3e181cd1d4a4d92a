// A profile may hold the signing secret being rotated out beside the current one (sealed like it), so
// callbacks still signed with it verify during a rotation; a capture records which secret matched.
import type { Db } from '../db';

export function up(db: Db): void {
  db.exec(`
    ALTER TABLE profiles ADD COLUMN previous_secret_enc BLOB;
    ALTER TABLE profiles ADD COLUMN previous_secret_fp TEXT;
    ALTER TABLE exchanges ADD COLUMN sig_secret TEXT CHECK (sig_secret IN ('current', 'previous'));
  `);
}
