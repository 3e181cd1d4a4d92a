// The PostgreSQL engine's pieces that exist so far: the schema and its migrations, and connections.
export { connectPostgres, databaseFailure, isPostgresError, type ConnectOptions } from './connect';
export { databaseUrlProblem, redactDatabaseUrl, withoutPassword } from './database-url';
export { migratePostgres, pgSchemaVersion, tooNew, type PgMigrateReport } from './migrate';
export { PG_LATEST_VERSION } from './migrations';
