// One connection to a PostgreSQL database, with errors that name the server by its redacted URL.
import type pg from 'pg';
import { DeskFailure } from '../../result';
import { databaseUrlProblem, redactDatabaseUrl, withoutPassword } from '../database-url';

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
  /** How long one statement may run before the server cancels it (statement_timeout; default: the server's). */
  statementTimeoutMs?: number;
  /**
   * Plan each prepared statement once per connection and keep the plan (the writer's): planning its group
   * statement (twelve indexes, their predicates) for every group took about 30% of the database's CPU
   * a capture. A kept plan is made from the table's statistics of its moment, and one made while the log
   * was empty or unanalyzed would read the whole table for every group's answers; so the connection also
   * rules out whole-table reads and the joins built on them, where an index can do instead. Its statements
   * find rows by key, never by scanning.
   */
  keptPlans?: boolean;
  /**
   * Run each statement in this connection's own server process, never with parallel workers: a person's
   * search through the whole log would otherwise take every core of the server (a leader and its
   * workers, each its own process) from the proxies' commits beside it, and on a server that shares its
   * cores with a proxy, from the proxy too. The reads take longer; the captures do not wait.
   */
  oneProcess?: boolean;
  /** What the server lists the connection as (pg_stat_activity's application_name; default `wager-desk`). */
  applicationName?: string;
}

/** The desk's reading connections (its pool, its listeners, the export thread's): patient, and never the server's parallel workers. */
export const READER: ConnectOptions = { numbers: true, connectTimeoutMs: 10_000, queryTimeoutMs: 30_000, oneProcess: true };

/** A kept plan's settings: planned once, and only from index probes (see `keptPlans`). */
const KEPT_PLANS = ['SET plan_cache_mode = force_generic_plan', 'SET enable_seqscan = off', 'SET enable_hashjoin = off', 'SET enable_mergejoin = off'];

/** What a connection sets once connected, before its first statement. */
function sessionSettings(options: ConnectOptions): string[] {
  return [...(options.keptPlans ? KEPT_PLANS : []), ...(options.oneProcess ? ['SET max_parallel_workers_per_gather = 0'] : [])];
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

/** A client's settings for `url` and `options` (a lone connection's, or each of a pool's). */
function clientConfig(url: string, options: ConnectOptions, types: typeof pg.types): pg.ClientConfig {
  const problem = databaseUrlProblem(url);
  if (problem) throw new DeskFailure('bad-input', `The database URL: ${problem}`);
  const int8 = int8Parser(options);
  return {
    connectionString: url,
    application_name: options.applicationName ?? 'wager-desk',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 15_000,
    ...(options.queryTimeoutMs !== undefined ? { query_timeout: options.queryTimeoutMs } : {}),
    ...(options.statementTimeoutMs !== undefined ? { statement_timeout: options.statementTimeoutMs } : {}),
    ...(int8 !== null
      ? {
          types: {
            getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
              oid === INT8 ? int8 : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
          },
        }
      : {}),
  };
}

/**
 * A pool of up to `max` connections, opened as they are needed and closed after a minute idle. Each
 * caller checks one out for its statements alone (pool.connect(), then release()).
 */
export async function poolPostgres(url: string, options: ConnectOptions & { max: number }): Promise<pg.Pool> {
  const { Pool, types } = await loadDriver();
  const pool = new Pool({ ...clientConfig(url, options, types), max: options.max, idleTimeoutMillis: 60_000 });
  // A connection the server drops must not end the process: idle, the pool opens another; checked out,
  // the statement on it fails (the pool's own listener covers idle connections only).
  pool.on('error', () => {});
  // The settings go first in each new connection's queue: the driver sends its queries in order.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    for (const sql of sessionSettings(options)) client.query(sql).catch(() => {});
  });
  return pool;
}

export async function connectPostgres(url: string, options: ConnectOptions = {}): Promise<pg.Client> {
  const { Client, types } = await loadDriver();
  const client = new Client(clientConfig(url, options, types));
  // A connection the server drops between queries must not end the process: the next query fails instead.
  client.on('error', () => {});
  try {
    await client.connect();
    for (const sql of sessionSettings(options)) await client.query(sql);
  } catch (err) {
    await client.end().catch(() => undefined);
    throw databaseFailure(url, err);
  }
  return client;
}

/** Whether `err` is the server cancelling a statement past its statement_timeout (or on request). */
export const isCancelled = (err: unknown): boolean => driver !== null && err instanceof driver.DatabaseError && err.code === '57014';

/** Whether `err` is the server's answer (a failed statement), as opposed to this process's own failure. */
export const isPostgresError = (err: unknown): boolean => driver !== null && err instanceof driver.DatabaseError;

/** Whether the failure says the connection itself is gone, rather than one statement refused. */
export function connectionEnded(err: unknown): boolean {
  if (!isPostgresError(err)) return true;
  // Class 08: connection exceptions; 57P0x: the server is shutting down or restarting.
  const code = (err as { code?: string }).code ?? '';
  return code.startsWith('08') || code.startsWith('57P');
}
