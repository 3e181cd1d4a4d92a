// The PostgreSQL engine's pieces that exist so far: the schema and its migrations, connections, and the
// exchange log (the proxy's writer, the reads of the list and of `tail`).
export { connectPostgres, databaseFailure, isPostgresError, type ConnectOptions } from './connect';
export { databaseSecrets, databaseUrlProblem, redactDatabaseUrl, withoutPassword } from '../database-url';
export { migratePostgres, pgSchemaVersion, requireCurrentSchema, tooNew, type PgMigrateReport } from './migrate';
export { EXCHANGES_CHANNEL, PgCaptureWriter } from './capture-writer';
export { TeamLog } from './team-log';
export { PG_LATEST_VERSION } from './migrations';
export type { ProfileChange } from './team-profiles';
