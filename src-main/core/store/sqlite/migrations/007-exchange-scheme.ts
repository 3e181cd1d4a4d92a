// A capture records how it arrived (http or https: the proxy may serve either), NULL when not known
// (rows written before, imports, outbound sends); a profile records the address the platform calls it
// at (a tunnel's, a host's), from which the callback URLs to configure in the platform are made.
import type { Db } from '../db';

export function up(db: Db): void {
  db.exec(`
    ALTER TABLE exchanges ADD COLUMN scheme TEXT CHECK (scheme IN ('http', 'https'));
    ALTER TABLE profiles ADD COLUMN public_url TEXT;
  `);
}
