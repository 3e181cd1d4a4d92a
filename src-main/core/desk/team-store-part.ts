// db migrate and db copy: the data directory's SQLite log and a team's PostgreSQL. A copy into PostgreSQL
// first brings the database's schema up to date; a copy out of it needs a database at this version's
// schema. The PostgreSQL side is named by its URL without the password in everything said back.
import type { DatabaseChoice, DatabaseCopyReport, DatabaseMigration, TeamStoreTools } from '../../shared/team-store';
import { DeskFailure } from '../result';
import { attempt } from './attempt';
import { connectionOf, DATABASE_FILE } from '../store/sqlite';
import { copyTables, postgresSide, sqliteSide } from '../store/copy';
import {
  connectPostgres,
  databaseFailure,
  databaseUrlProblem,
  isPostgresError,
  migratePostgres,
  redactDatabaseUrl,
  requireCurrentSchema,
  withoutPassword,
} from '../store/postgres';
import type pg from 'pg';
import type { DeskContext } from './context';
import { saveDatabase, savedDatabase, savedDatabaseFile } from './saved-database';

async function migrated(client: pg.Client, url: string): Promise<DatabaseMigration> {
  const r = await migratePostgres(client);
  return { database: redactDatabaseUrl(url), from: r.from, to: r.to, applied: r.applied, trigramIndex: r.trigramIndex };
}

/** Runs `fn` on a connection to `url`, always closing it; failures come back without the password. */
async function withDatabase<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connectPostgres(url, { bigints: true });
  try {
    return await fn(client);
  } catch (err) {
    if (err instanceof DeskFailure) throw err;
    if (isPostgresError(err)) throw databaseFailure(url, err);
    throw new DeskFailure('io-error', withoutPassword(err instanceof Error ? err.message : String(err), url));
  } finally {
    await client.end().catch(() => undefined);
  }
}

function choice(home: string, url: string | undefined): DatabaseChoice {
  return { database: url === undefined ? null : redactDatabaseUrl(url), file: savedDatabaseFile(home) };
}

export function teamStorePart(ctx: DeskContext): TeamStoreTools {
  const { store } = ctx;
  const sqliteLabel = `the SQLite log ${store.dir}/${DATABASE_FILE}`;
  return {
    migrateDatabase: (url) => attempt(() => withDatabase(url, (client) => migrated(client, url))),
    useDatabase: (url) =>
      attempt(async (): Promise<DatabaseChoice> => {
        if (url !== null) {
          const problem = databaseUrlProblem(url);
          if (problem) throw new DeskFailure('bad-input', `The database URL: ${problem}`);
          // Checked before it is saved: a desk that starts on it later would otherwise refuse to start.
          await withDatabase(url, (client) => requireCurrentSchema(client, redactDatabaseUrl(url)));
        }
        saveDatabase(ctx.options.home, url);
        return choice(ctx.options.home, url ?? undefined);
      }),
    savedDatabase: () => attempt(() => choice(ctx.options.home, savedDatabase(ctx.options.home))),
    copyDatabase: (request, onProgress) =>
      attempt(() =>
        withDatabase(request.url, async (client): Promise<DatabaseCopyReport> => {
          const pgLabel = `PostgreSQL at ${redactDatabaseUrl(request.url)}`;
          const local = sqliteSide(connectionOf(store), sqliteLabel);
          const remote = postgresSide(client, pgLabel);
          const into = request.direction === 'to';
          let migration: DatabaseMigration | null = null;
          if (into) migration = await migrated(client, request.url);
          else await requireCurrentSchema(client, redactDatabaseUrl(request.url));
          try {
            const outcome = await copyTables(into ? local : remote, into ? remote : local, {
              ...(request.batchRows !== undefined ? { batchRows: request.batchRows } : {}),
              ...(request.stopAfterBatches !== undefined ? { stopAfterBatches: request.stopAfterBatches } : {}),
              ...(onProgress ? { onProgress } : {}),
            });
            return { source: into ? sqliteLabel : pgLabel, target: into ? pgLabel : sqliteLabel, migration, ...outcome };
          } finally {
            // Rows written under the store's feet: its cached counts are read again.
            if (!into) store.exchanges.recount();
          }
        }),
      ),
  };
}
