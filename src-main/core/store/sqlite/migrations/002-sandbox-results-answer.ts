// The sandbox operator answers a repeated results callback exactly as it answered the first one, so it
// keeps that first answer beside the pay's.
import type { Db } from '../db';

export function up(db: Db): void {
  db.exec('ALTER TABLE sandbox_deposits ADD COLUMN results_response TEXT');
}
