// An export of a team's log has its rows read by the export thread, on a connection of its own, so that the
// proxy's thread neither parses them nor wakes the server for them. The server's own list of connections
// (pg_stat_activity: each one's name and last statement) says which connection read them; the control is
// the same read made on the proxy's thread, which that list shows on the desk's reading connection.
import type pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { harEntriesHere } from '../../../src-main/core/export/har-entries-text';
import { harText } from '../../../src-main/core/export/har-text';
import { HarThread } from '../../../src-main/core/export/har-thread';
import { connectPostgres, TeamLog } from '../../../src-main/core/store/postgres';
import { EXPORT_THREAD_APPLICATION, ThreadExportReads } from '../../../src-main/core/store/postgres/thread-export-reads';
import { readElsewhere } from '../../../src-main/core/store/rows/export-rows';
import type { ExchangeReader } from '../../../src-main/core/store/contract/exchange-log';
import { readStoppedMessage, stoppedSeconds } from '../../../src-main/core/store/rows/read-budget';
import { DeskFailure } from '../../../src-main/core/result';
import { sign } from '../../../src-main/core/signing';
import { builtExportThread } from '../../helpers/export-thread';
import { must } from '../../helpers/must';
import { migratedDatabase, teamKeyFile, usePostgres } from '../../helpers/postgres';
import { startRelay } from '../../helpers/tcp-relay';
import { tempDir } from '../../helpers/temp';
import { send, startProxy } from '../proxy/helpers';

const server = usePostgres();
const SECRET = 'team-export-thread-secret';
/** More captures than one read's slice (har-text.ts READ_SLICE, 50): the thread reads more than once. */
const CAPTURES = 60;
/** The export read's last statement: the ids derived from the slice's (exchange-reads.ts derivedFrom). */
const EXPORT_READ = /source_id = ANY/;

type Har = { log: { entries: Array<{ _wagerDesk: { id: number } }> } };

async function deskWithCaptures(url: string): Promise<Desk> {
  const desk = createDesk({ home: tempDir(), database: url, keyFile: teamKeyFile(url) });
  onTestFinished(() => desk.close());
  must(await desk.saveProfile({ name: 'acme', secret: SECRET }));
  must(await desk.useProfile('acme'));
  const proxy = await startProxy(desk);
  const replies = await Promise.all(
    Array.from({ length: CAPTURES }, (_, i) => {
      const body = JSON.stringify({ userId: `u-${i}`, depositId: `d-${i}`, currency: 'EUR', amount: 1 });
      return send(proxy.url, {
        path: '/platform/pay',
        body,
        headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), SECRET) },
      });
    }),
  );
  expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
  return desk;
}

/** The other connections to the database: the name each gave and its last statement. */
async function connections(admin: pg.Client): Promise<Array<{ application_name: string; query: string }>> {
  return (
    await admin.query<{ application_name: string; query: string }>(
      'SELECT application_name, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    )
  ).rows;
}

/** The team log's reader, as a desk holds it (closed after the test). */
function teamReader(url: string): ExchangeReader {
  const log = new TeamLog(url);
  onTestFinished(() => log.close());
  return log.reader();
}

async function openAdmin(url: string): Promise<pg.Client> {
  const admin = await connectPostgres(url);
  onTestFinished(() => admin.end());
  return admin;
}

describe("an export of a team's log", () => {
  it("has its rows read by the export thread on its own connection, the same HAR as rows read on the proxy's thread", async () => {
    const url = await migratedDatabase(server());
    const desk = await deskWithCaptures(url);
    const admin = await openAdmin(url);

    const har = JSON.parse(must(await desk.exportHar({}))) as Har;
    const ids = har.log.entries.map((e) => e._wagerDesk.id);
    expect(ids).toHaveLength(CAPTURES);
    const seen = await connections(admin);
    expect(seen.filter((c) => c.application_name === EXPORT_THREAD_APPLICATION && EXPORT_READ.test(c.query))).toHaveLength(1);
    expect(seen.filter((c) => c.application_name !== EXPORT_THREAD_APPLICATION && EXPORT_READ.test(c.query))).toEqual([]);

    // The control: the same rows read on this thread (where no export thread can start) show on a desk's
    // reading connection, and make the same entries.
    const reader = teamReader(url);
    const here = await harText(
      ids,
      async (slice) => {
        const found = await reader.exportRows(slice);
        expect(readElsewhere(found)).toBe(true);
        return readElsewhere(found) ? found.readHere() : found;
      },
      [SECRET],
      'control',
      harEntriesHere,
    );
    expect((JSON.parse(here) as Har).log.entries).toEqual(har.log.entries);
    expect((await connections(admin)).filter((c) => c.application_name !== EXPORT_THREAD_APPLICATION && EXPORT_READ.test(c.query))).toHaveLength(1);
  }, 120_000);

  it('is whole again after the server ended the thread’s connection between two exports', async () => {
    const url = await migratedDatabase(server());
    const desk = await deskWithCaptures(url);
    const admin = await openAdmin(url);
    const first = must(await desk.exportHar({}));

    const ended = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [
      EXPORT_THREAD_APPLICATION,
    ]);
    expect(ended.rowCount).toBe(1);
    await expect.poll(async () => (await connections(admin)).filter((c) => c.application_name === EXPORT_THREAD_APPLICATION).length).toBe(0);

    const again = must(await desk.exportHar({}));
    expect((JSON.parse(again) as Har).log.entries).toEqual((JSON.parse(first) as Har).log.entries);
    expect((await connections(admin)).filter((c) => c.application_name === EXPORT_THREAD_APPLICATION)).toHaveLength(1);
  }, 120_000);

  it('reads again on a new connection when its kept one is found dead only by the read (a link that dropped it quietly)', async () => {
    const url = await migratedDatabase(server());
    const desk = await deskWithCaptures(url);
    const ids = (JSON.parse(must(await desk.exportHar({}))) as Har).log.entries.map((e) => e._wagerDesk.id);
    const target = new URL(url);
    const relay = await startRelay({ host: target.hostname, port: Number(target.port) });
    onTestFinished(() => relay.close());
    const source = { postgres: { url: relay.through(url), statementTimeoutMs: 30_000 } };
    const reads = new ThreadExportReads();
    const first = await reads.exportRows(source, ids);
    expect(first.rows).toHaveLength(CAPTURES);
    expect(relay.accepted).toBe(1);

    // Unlike a server's end of the connection, nothing tells the pool: the read itself meets the dead one.
    relay.dropQuietly();
    const again = await reads.exportRows(source, ids);
    expect(relay.sentOnDropped).toBe(1);
    expect(relay.accepted).toBe(2);
    expect(again).toEqual(first);
  }, 120_000);

  it('says a read past its budget stopped, with the desk’s code, across the thread', async () => {
    const url = await migratedDatabase(server());
    const admin = await openAdmin(url);
    // The table held by another transaction: the thread's read waits for it until its budget runs out.
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE exchanges IN ACCESS EXCLUSIVE MODE');
    onTestFinished(() => admin.query('ROLLBACK').then(() => undefined));
    const thread = HarThread.create()!;
    onTestFinished(() => thread.close());
    const source = { postgres: { url, statementTimeoutMs: 300 } };
    const failure = await thread.build({ ids: [1], found: { readThere: source, readHere: async () => ({ rows: [], derived: [] }) } }, [SECRET]).then(
      () => null,
      (err: unknown) => err,
    );
    expect(thread.buildsInPlace()).toBe(false);
    expect(failure).toBeInstanceOf(DeskFailure);
    expect((failure as DeskFailure).code).toBe('io-error');
    expect((failure as DeskFailure).message).toBe(readStoppedMessage(stoppedSeconds(300)));
  }, 60_000);

  it("names the database without its password when the thread's read fails", async () => {
    const url = new URL(await migratedDatabase(server()));
    const password = decodeURIComponent(url.password);
    expect(password.length).toBeGreaterThan(8);
    url.pathname = '/wd_no_such_database';
    const reads = new ThreadExportReads();
    const failure = await reads.exportRows({ postgres: { url: url.toString(), statementTimeoutMs: 5_000 } }, [1]).then(
      () => null,
      (err: unknown) => err as Error,
    );
    expect(failure?.message).toMatch(/^PostgreSQL at postgres:\/\/.*wd_no_such_database: .*wd_no_such_database/);
    expect(failure?.message).not.toContain(password);
  }, 60_000);

  it('has its rows read by the export thread of the test build (of the sources where no fresh build is there)', async () => {
    const url = await migratedDatabase(server());
    const desk = await deskWithCaptures(url);
    const admin = await openAdmin(url);
    const har = JSON.parse(must(await desk.exportHar({}))) as Har;
    const ids = har.log.entries.map((e) => e._wagerDesk.id);

    const thread = HarThread.create(builtExportThread() ?? undefined)!;
    onTestFinished(() => thread.close());
    const reader = teamReader(url);
    const text = await harText(ids, (slice) => reader.exportRows(slice), [SECRET], 'built', thread.build);
    expect(thread.buildsInPlace()).toBe(false);
    expect((JSON.parse(text) as Har).log.entries).toEqual(har.log.entries);
    // Two export threads have read: the desk's and this one.
    expect((await connections(admin)).filter((c) => c.application_name === EXPORT_THREAD_APPLICATION && EXPORT_READ.test(c.query))).toHaveLength(2);
  }, 120_000);
});
