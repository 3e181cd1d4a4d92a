// Faults the capture proxy applies to callbacks (an error status, a delay, no answer, a reset): kept in
// the database so that `wager-desk sandbox fault add` in one process reaches a proxy running in another.
// matched/applied count what the proxy did with each, so a counted fault is spent across restarts too.
import type { Db } from '../db';

export function up(db: Db): void {
  db.exec(`
    CREATE TABLE proxy_faults (
      id INTEGER PRIMARY KEY,
      path TEXT CHECK (path IN ('pay', 'results')),
      action TEXT NOT NULL CHECK (action IN ('status', 'delay', 'timeout', 'reset')),
      status INTEGER CHECK (status BETWEEN 100 AND 599),
      body TEXT,
      delay_ms INTEGER CHECK (delay_ms >= 0),
      max_count INTEGER CHECK (max_count > 0),
      ratio REAL CHECK (ratio > 0 AND ratio <= 1),
      matched INTEGER NOT NULL DEFAULT 0,
      applied INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL
    ) STRICT;
  `);
}
