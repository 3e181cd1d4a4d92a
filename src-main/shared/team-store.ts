// What the team-store commands (db migrate, db copy) say back: the PostgreSQL side is always named by its
// URL without the password.
import type { Result } from './model';

export interface DatabaseMigration {
  /** The database, its URL with the password replaced by ***. */
  database: string;
  /** The schema version found (0: a database Wager Desk had not used) and the one it is at now. */
  from: number;
  to: number;
  /** The steps this run applied ("1 initial"); empty when the schema was up to date. */
  applied: string[];
  /** Whether search has its trigram index (pg_trgm), and if not, why. */
  trigramIndex: { ready: true } | { ready: false; reason: string };
}

/** to: the data directory's SQLite log into PostgreSQL; from: PostgreSQL into the data directory's SQLite. */
export type CopyDirection = 'to' | 'from';

export interface DatabaseCopyRequest {
  direction: CopyDirection;
  url: string;
  /** Rows per batch, each its own transaction on the target. */
  batchRows?: number;
  /** Stops after this many batches, as an interrupted run would (for tests of resuming). */
  stopAfterBatches?: number;
}

export interface DatabaseCopyProgress {
  table: string;
  copied: number;
  total: number;
}

export interface DatabaseCopyReport {
  source: string;
  target: string;
  /** The target's migration, when the copy went into PostgreSQL (it is brought up to date first). */
  migration: DatabaseMigration | null;
  tables: Array<{ table: string; copied: number; alreadyThere: number }>;
  copied: number;
  /** Rows an earlier, interrupted run had copied already. */
  alreadyThere: number;
  complete: boolean;
}

/** The team database saved for the data directory (`db use`): what the app and every command use when nothing else names one. */
export interface DatabaseChoice {
  /** Its URL with the password replaced by ***; null: none saved, the data directory's own SQLite log. */
  database: string | null;
  /** The file it is kept in, readable by its owner only. */
  file: string;
}

/** The team-store members of a desk. Not in DeskApi: the UI never names a database for the desk to dial. */
export interface TeamStoreTools {
  migrateDatabase(url: string): Promise<Result<DatabaseMigration>>;
  /** Saves `url` for the data directory once it connects and holds this version's schema; null: forgets it. */
  useDatabase(url: string | null): Promise<Result<DatabaseChoice>>;
  /** What is saved (the saved file is read again, as a desk starting now would). */
  savedDatabase(): Promise<Result<DatabaseChoice>>;
  copyDatabase(request: DatabaseCopyRequest, onProgress?: (progress: DatabaseCopyProgress) => void): Promise<Result<DatabaseCopyReport>>;
}
