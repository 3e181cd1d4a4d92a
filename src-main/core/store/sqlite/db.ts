// The SQLite connection's type, in a file of its own so that the migrations (which open.ts runs) can
// name it without importing open.ts back.
import type Database from 'better-sqlite3';

export type Db = Database.Database;
