// One connection to a PostgreSQL database, with errors that name the server by its redacted URL.
import type pg from 'pg';
import { DeskFailure } from '../../result';
import { databaseUrlProblem, redactDatabaseUrl, withoutPassword } from './database-url';

/** PostgreSQL's type id of bigint (int8): read as a BigInt (exact, for the copy) or a number (ids), as asked. */
const INT8 = 20;

export interface ConnectOptions {
  /** Read bigint columns as BigInt (exact past 2^53) instead of pg's default string. */
  bigints?: boolean;
  /** Read bigint columns as numbers: row ids and sizes, far below 2^53. */
  numbers?: boolean;
  /** How long connecting may take (default 15 s). */
  connectTimeoutMs?: number;
  /** How long one statement may take before the client gives up on it (default: no limit). */
  queryTimeoutMs?: number;
  /**
   * Plan each prepared statement for its own values, never once for all (the writer's). A plan PostgreSQL
   * keeps for a statement's every run is made from the table's statistics at that moment: made while
   * the exchanges were empty or unanalyzed, it reads the whole table for each group (a sequential scan
   * to find the rows it updates) until an ANALYZE replaces it, and the group's cost grows with the log.
   */
  customPlans?: boolean;
}

/**
 * The driver, loaded by the first connection: most commands and desks never open a team database, and
 * loading pg at start costs every run of the CLI about a tenth of its start-up.
 */
let driver: typeof pg | null = null;

async function loadDriver(): Promise<typeof pg> {
  driver ??= (await import('pg')).default;
  return driver;
}

function int8Parser(options: ConnectOptions): ((v: string) => unknown) | null {
  if (options.bigints) return (v) => BigInt(v);
  if (options.numbers) return Number;
  return null;
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
  const int8 = int8Parser(options);
  const { Client, types } = await loadDriver();
  const client = new Client({
    connectionString: url,
    application_name: 'wager-desk',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 15_000,
    ...(options.queryTimeoutMs !== undefined ? { query_timeout: options.queryTimeoutMs } : {}),
    ...(int8 !== null
      ? {
          types: {
            getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
              oid === INT8 ? int8 : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
          },
        }
      : {}),
  });
  // A connection the server drops between queries must not end the process: the next query fails instead.
  client.on('error', () => {});
  try {
    await client.connect();
    if (options.customPlans) await client.query('SET plan_cache_mode = force_custom_plan');
  } catch (err) {
    await client.end().catch(() => undefined);
    throw databaseFailure(url, err);
  }
  return client;
}

/** Whether `err` is the server's answer (a failed statement), as opposed to this process's own failure. */
export const isPostgresError = (err: unknown): boolean => driver !== null && err instanceof driver.DatabaseError;
