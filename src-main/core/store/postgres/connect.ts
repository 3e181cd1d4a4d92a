// One connection to a PostgreSQL database, with errors that name the server by its redacted URL.
import pg from 'pg';
import { DeskFailure } from '../../result';
import { databaseUrlProblem, redactDatabaseUrl, withoutPassword } from './database-url';

/** PostgreSQL's type ids whose text form the copy reads exactly: bigint (int8) as a BigInt. */
const INT8 = 20;

export interface ConnectOptions {
  /** Read bigint columns as BigInt (exact past 2^53) instead of pg's default string. */
  bigints?: boolean;
}

/** A failure of the database named by `url`, as a desk failure whose message carries no password. */
export function databaseFailure(url: string, err: unknown): DeskFailure {
  if (err instanceof DeskFailure) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new DeskFailure('io-error', `PostgreSQL at ${redactDatabaseUrl(url)}: ${withoutPassword(message, url)}`);
}

export async function connectPostgres(url: string, options: ConnectOptions = {}): Promise<pg.Client> {
  const problem = databaseUrlProblem(url);
  if (problem) throw new DeskFailure('bad-input', `The database URL: ${problem}`);
  const client = new pg.Client({
    connectionString: url,
    application_name: 'wager-desk',
    connectionTimeoutMillis: 15_000,
    ...(options.bigints
      ? {
          types: {
            getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
              oid === INT8 ? (v: string) => BigInt(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
          },
        }
      : {}),
  });
  // A connection the server drops between queries must not end the process: the next query fails instead.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw databaseFailure(url, err);
  }
  return client;
}

/** Whether `err` is the server's answer (a failed statement), as opposed to this process's own failure. */
export const isPostgresError = (err: unknown): boolean => err instanceof pg.DatabaseError;
