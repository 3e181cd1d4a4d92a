// Promise 8: a damaged database, a full disk, a read-only data directory: a clear error, and no damage
// to the data. (A database from a newer version is refused untouched in test/integration/store; here
// only the CLI's side of it: one line, exit 2.)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { DATABASE_FILE, DataDirError, KEY_FILE } from '../../src-main/core/store/sqlite';
import { LATEST_VERSION } from '../../src-main/core/store/sqlite/migrations';
import { runCli, type CliResult } from '../helpers/cli';
import { tempDir } from '../helpers/temp';
import { send, startProxy } from '../integration/proxy/helpers';
import { closeAfterTest } from '../helpers/closing';
import { startRecorder } from '../helpers/servers';
import { makeReadOnly, runCliAs } from './helpers/as-other-user';
import { sqliteOf, logOf } from '../helpers/desk';
import { exchangesOf } from '../helpers/log-reads';

const SECRET = 'damaged-storage-secret';

/** A data directory with a profile and a few captures, closed. */
async function populatedHome(): Promise<string> {
  const home = tempDir();
  const desk = createDesk({ home });
  try {
    expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
    const { url } = await startProxy(desk);
    for (let i = 0; i < 5; i++) {
      const body = JSON.stringify({ userId: 'u', depositId: `d-${i}`, currency: 'USD', amount: 1 });
      expect((await send(url, { body, headers: { 'x-server-authorization': sign(Buffer.from(body), SECRET) } })).status).toBe(200);
    }
  } finally {
    await desk.close();
  }
  return home;
}

function expectOneLineRefusal(result: CliResult, pattern: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^wager-desk: /);
  expect(lines[0]).toMatch(pattern);
}

function snapshot(home: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [DATABASE_FILE, KEY_FILE]) out[name] = readFileSync(join(home, name)).toString('base64');
  return out;
}

describe('a damaged database', () => {
  const damages: Array<{ name: string; damage: (bytes: Buffer) => Buffer }> = [
    { name: 'garbage bytes from the first byte', damage: (b) => Buffer.alloc(b.length, 0x5a) },
    // SQLite's header intact (it opens), the schema page behind it overwritten.
    { name: 'a valid header over garbage pages', damage: (b) => Buffer.concat([b.subarray(0, 100), Buffer.alloc(b.length - 100, 0xa5)]) },
  ];
  for (const { name, damage } of damages) {
    it(`${name}: createDesk and the CLI refuse with a clear line, and the file stays as it was`, async () => {
      const home = await populatedHome();
      const file = join(home, DATABASE_FILE);
      writeFileSync(file, damage(readFileSync(file)));
      const before = snapshot(home);

      let thrown: unknown;
      try {
        createDesk({ home });
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(DataDirError);
      expect((thrown as DataDirError).problem).toBe('damaged');
      expect((thrown as Error).message).toContain(file);
      expect((thrown as Error).message).toMatch(/damaged or is not a Wager Desk database .* left as it is/);

      for (const args of [
        ['captures', '--json'],
        ['serve', '--no-ui', '--proxy-port', '0'],
        ['prune', '--keep', '1'],
      ]) {
        expectOneLineRefusal(await runCli(['--home', home, ...args]), /is damaged or is not a Wager Desk database/);
      }
      expect(snapshot(home)).toEqual(before);
    });
  }

  it('a database from a newer version: the CLI refuses on one line (the store test proves it untouched)', async () => {
    const home = await populatedHome();
    const raw = new Database(join(home, DATABASE_FILE));
    raw.pragma(`user_version = ${LATEST_VERSION + 1}`);
    raw.close();
    const before = snapshot(home);
    expectOneLineRefusal(await runCli(['--home', home, 'captures']), /written by a newer Wager Desk/);
    expect(snapshot(home)).toEqual(before);
  });
});

describe('a full disk', () => {
  /**
   * Caps the database at its current size and fills its free pages with a filler table: from then on a
   * write that needs one more page fails with SQLITE_FULL, as on a disk with no byte left.
   */
  function fillDisk(desk: Desk): void {
    const db = sqliteOf(desk);
    db.exec('CREATE TABLE IF NOT EXISTS test_filler (b BLOB)');
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const fill = db.prepare('INSERT INTO test_filler VALUES (?)');
    for (const size of [65_536, 4_096, 512, 64, 1]) {
      try {
        for (;;) fill.run(Buffer.alloc(size));
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_FULL') throw err;
      }
    }
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
  }
  function freeDisk(desk: Desk): void {
    sqliteOf(desk).pragma('max_page_count = 1073741823');
  }
  const pay = (depositId: string, pad: number) => JSON.stringify({ userId: 'u', depositId, currency: 'USD', amount: 1, pad: 'x'.repeat(pad) });
  const statusOf = (url: string, body: string) =>
    send(url, { body, headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), SECRET) } }).then(
      (r) => r.status,
      () => 'no answer' as const,
    );

  for (const mode of ['sandbox', 'forward'] as const) {
    it(`${mode} mode: no request the proxy could not commit is acknowledged or forwarded; it says why, and captures again once there is room`, async () => {
      const upstream = closeAfterTest(await startRecorder((_req, _body, res) => res.end('{"status":"ok"}')));
      const desk = createDesk({ home: tempDir() });
      try {
        const { url } = await startProxy(desk, mode === 'forward' ? { upstream: upstream.url } : {});
        expect(await statusOf(url, pay('before', 0))).toBe(200);
        fillDisk(desk);

        // Bodies from small (may still fit in a page's free space) to far larger than any free space.
        const answers: Array<{ depositId: string; status: number | 'no answer' }> = [];
        for (const [i, pad] of [0, 10, 2_000, 20_000, 200_000, 500_000].entries()) {
          const depositId = `full-${i}`;
          answers.push({ depositId, status: await statusOf(url, pay(depositId, pad)) });
        }
        const stored = new Set(sqliteOf(desk).prepare('SELECT deposit_id FROM exchanges WHERE deposit_id IS NOT NULL').pluck().all() as string[]);
        const acknowledged = answers.filter((a) => typeof a.status === 'number' && a.status >= 200 && a.status < 300);
        // The promise: every 2XX has its row. And the large ones could not fit: they were refused.
        expect(acknowledged.filter((a) => !stored.has(a.depositId))).toEqual([]);
        const refused = answers.filter((a) => !stored.has(a.depositId));
        expect(refused.map((a) => a.depositId)).toEqual(expect.arrayContaining(['full-4', 'full-5']));
        // Answered 503, which the platform retries: never acknowledged.
        for (const r of refused) expect(r.status, r.depositId).toBe(503);
        // Forward mode: nothing unrecorded reached the operator.
        const forwarded = upstream.received.map((r) => (JSON.parse(r.body.toString()) as { depositId: string }).depositId);
        expect(forwarded.filter((d) => !stored.has(d))).toEqual([]);
        if (mode === 'sandbox') expect(upstream.received).toEqual([]);

        const status = await desk.getStatus();
        expect(status.ok && status.value.proxy.warning).toMatch(/could not be written to the database.*full/);

        freeDisk(desk);
        expect(await statusOf(url, pay('after', 500_000))).toBe(200);
        expect(sqliteOf(desk).prepare("SELECT count(*) FROM exchanges WHERE deposit_id = 'after'").pluck().get()).toBe(1);
        expect(sqliteOf(desk).pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        await desk.close();
      }
    });
  }

  it('a replay that cannot be recorded is not sent', async () => {
    const operator = closeAfterTest(await startRecorder((_req, _body, res) => res.end('{"status":"ok"}')));
    const desk = createDesk({ home: tempDir() });
    try {
      expect((await desk.saveProfile({ name: 'p', secret: SECRET, operatorUrl: operator.url })).ok).toBe(true);
      expect((await desk.useProfile('p')).ok).toBe(true);
      const { url } = await startProxy(desk);
      expect(await statusOf(url, pay('source', 300_000))).toBe(200);
      const source = (await exchangesOf(desk, { limit: 1 }))[0]!.id;
      fillDisk(desk);
      const replayed = await desk.replay({ sourceId: source });
      expect(replayed.ok).toBe(false);
      if (!replayed.ok) expect(replayed.error.message).toMatch(/full/);
      expect(operator.received).toEqual([]);
      freeDisk(desk);
      const again = await desk.replay({ sourceId: source });
      expect(again.ok && again.value.response?.status).toBe(200);
      expect(operator.received).toHaveLength(1);
    } finally {
      await desk.close();
    }
  });
});

describe('a read-only data directory', () => {
  const cases = [
    { name: 'the directory and its files read-only', dirToo: true },
    { name: 'the files read-only in a writable directory', dirToo: false },
  ];
  for (const c of cases) {
    it(`${c.name}: the CLI refuses with a clear line, and nothing changes`, { timeout: 30_000 }, async () => {
      const home = await populatedHome();
      const before = snapshot(home);
      const names = readdirSync(home).sort();
      const readOnly = makeReadOnly(home, { dirToo: c.dirToo });
      try {
        for (const args of [
          ['captures', '--json'],
          ['serve', '--no-ui', '--proxy-port', '0'],
          ['profile', 'set', 'q', '--operator-url', 'http://127.0.0.1:9'],
        ]) {
          expectOneLineRefusal(await runCliAs(readOnly.uid, ['--home', home, ...args]), /data directory .* cannot be written .*permissions/);
        }
        // Refused before SQLite created anything: no -wal or -shm left behind with the wrong owner or mode.
        expect(readdirSync(home).sort()).toEqual(names);
      } finally {
        readOnly.restore();
      }
      expect(snapshot(home)).toEqual(before);
      // And the data is whole: the desk opens it once it is writable again.
      const desk = createDesk({ home });
      try {
        expect(await logOf(desk).counts()).toEqual({ inbound: 5, outbound: 0 });
        expect(sqliteOf(desk).pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        await desk.close();
      }
    });
  }
});
