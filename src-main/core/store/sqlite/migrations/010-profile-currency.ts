// A profile says the currency its operator's users play in: what templates, checks and edge cases send,
// and how minor units are shown (by the currency's exponent). Existing profiles keep sending USD.
import type { Db } from '../db';

export function up(db: Db): void {
  db.exec(`ALTER TABLE profiles ADD COLUMN currency TEXT NOT NULL DEFAULT 'USD'`);
}
