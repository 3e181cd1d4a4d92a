// A balance URL's query values may be credentials (?key=...): the whole URL is sealed like the probe's
// headers, and balance_url keeps it with its query values masked, what a view shows. A URL stored
// before this column is sealed at the profile's next save (a migration has no key to seal with).
import type { Db } from '../db';

export function up(db: Db): void {
  db.exec('ALTER TABLE profiles ADD COLUMN balance_url_enc BLOB;');
}
