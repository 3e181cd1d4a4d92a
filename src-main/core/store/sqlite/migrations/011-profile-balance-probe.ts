// A profile may name where its operator's balance can be read (a staging endpoint for test users) and
// where an answer carries it: the conformance check's evidence of money. The probe's header values are
// credentials, sealed like the other secrets (one sealed JSON list); their names and fingerprints are
// kept apart so a view never opens them.
import type { Db } from '../db';

export function up(db: Db): void {
  db.exec(`
    ALTER TABLE profiles ADD COLUMN balance_url TEXT;
    ALTER TABLE profiles ADD COLUMN balance_path TEXT;
    ALTER TABLE profiles ADD COLUMN balance_units TEXT CHECK (balance_units IN ('minor', 'major'));
    ALTER TABLE profiles ADD COLUMN balance_headers_enc BLOB;
    ALTER TABLE profiles ADD COLUMN balance_headers TEXT;
    ALTER TABLE profiles ADD COLUMN answer_balance_path TEXT;
  `);
}
