// An export of the data directory's log has its rows read by the export thread from the file itself
// (store/sqlite/thread-export-reads.ts), rather than by a reading thread that hands them to the proxy's
// thread to pass on. Those rows, and the entries built of them, must be the desk's own read's, for every
// kind of column: blobs with every byte, texts with quotes, control characters and emoji, the infinities
// in a double column; the built thread must read them as its sources do; a file it cannot open is a clear
// failure, not a hang.
import { writeFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { storeOf } from '../../helpers/desk';
import { harEntriesHere, harEntriesText } from '../../../src-main/core/export/har-entries-text';
import { harText } from '../../../src-main/core/export/har-text';
import { HarThread } from '../../../src-main/core/export/har-thread';
import { DeskFailure } from '../../../src-main/core/result';
import { connectionOf, openStore, type Store } from '../../../src-main/core/store/sqlite';
import { sqliteLog } from '../../../src-main/core/store/sqlite/log';
import { SqliteThreadExportReads } from '../../../src-main/core/store/sqlite/thread-export-reads';
import { readElsewhere, type SqliteRowSource } from '../../../src-main/core/store/rows/export-rows';
import { builtExportThread } from '../../helpers/export-thread';
import { inboundRow } from '../../helpers/exchanges';
import { must } from '../../helpers/must';
import { tempDir } from '../../helpers/temp';

const SECRET = 'sqlite-export-thread-secret';
const EVERY_BYTE = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const AWKWARD_TEXT = 'quote " backslash \\ tab \t line\nseparator \u2028 control \u0001 emoji 🃏 é';

type Har = { log: { entries: Array<{ _wagerDesk: { id: number } }> } };

/** A store holding rows with every kind of column, answered and not, and a replay of the first; their ids. */
function filledStore(store: Store): number[] {
  const ids: number[] = [];
  connectionOf(store).transaction(() => {
    const first = store.exchanges.record(inboundRow({ body: EVERY_BYTE, size: EVERY_BYTE.length, query: `a=1&q=${encodeURIComponent(AWKWARD_TEXT)}` }));
    store.exchanges.finish(first, {
      response: { status: 200, headers: [['x-note', AWKWARD_TEXT]], body: EVERY_BYTE },
      error: null,
      durationMs: Infinity,
      completedAt: '2026-12-03T10:00:00.000Z',
    });
    const second = store.exchanges.record(
      inboundRow({ headers: [['x-server-authorization', SECRET]], body: Buffer.from(AWKWARD_TEXT), size: Buffer.byteLength(AWKWARD_TEXT) }),
    );
    store.exchanges.finish(second, { response: null, error: 'connect ECONNREFUSED', durationMs: -Infinity, completedAt: '2026-12-03T10:00:01.000Z' });
    const unanswered = store.exchanges.record(inboundRow({ body: Buffer.alloc(0), size: 0 }));
    const replay = store.exchanges.record(inboundRow({ direction: 'outbound', origin: 'replay', sourceId: first }));
    ids.push(first, second, unanswered, replay);
  })();
  return ids;
}

function openFilled(): { store: Store; ids: number[] } {
  const store = openStore(tempDir());
  onTestFinished(async () => {
    await store.closeReaders();
    store.close();
  });
  return { store, ids: filledStore(store) };
}

describe("an export of the data directory's log", () => {
  it("has its rows read from the file by the export thread: the desk's own rows, the same entries", async () => {
    const { store, ids } = openFilled();
    const log = sqliteLog(store);
    const here = await log.detailRows(ids);
    expect(here.rows).toHaveLength(4);
    expect(here.derived).toEqual([{ source_id: ids[0], id: ids[3] }]);

    const found = await log.exportRows(ids);
    expect(readElsewhere(found)).toBe(true);
    if (!readElsewhere(found)) return;
    const source = found.readThere as SqliteRowSource;
    expect(source.sqlite.file).toBe(connectionOf(store).name);
    expect(await found.readHere()).toEqual(here);

    const there = new SqliteThreadExportReads().exportRows(source, ids);
    expect(there).toEqual(here);
    expect(there.rows.find((r) => r.id === ids[0])!.req_body.equals(EVERY_BYTE)).toBe(true);
    expect(there.rows.map((r) => r.duration_ms)).toEqual(expect.arrayContaining([Infinity, -Infinity, null]));

    const entries = harEntriesText({ ids, found: here }, [SECRET]);
    const thread = HarThread.create()!;
    onTestFinished(() => thread.close());
    // The log counts the thread's read as under way until the thread answers (its checkpointer waits meanwhile).
    let underWay = 0;
    const counted = {
      ...found,
      underWay: () => {
        underWay += 1;
        const end = found.underWay!();
        return () => (end(), (underWay -= 1));
      },
    };
    const building = thread.build({ ids, found: counted }, [SECRET]);
    expect(underWay).toBe(1);
    expect(await building).toBe(entries);
    expect(underWay).toBe(0);
    expect(thread.buildsInPlace()).toBe(false);
    expect(entries).not.toContain(SECRET);
  });

  it("exports through the desk the HAR of the rows read on the proxy's thread (the control)", async () => {
    const home = tempDir();
    const desk = createDesk({ home });
    onTestFinished(() => desk.close());
    const ids = filledStore(storeOf(desk));
    const har = JSON.parse(must(await desk.exportHar({ direction: 'all' }))) as Har;
    expect(har.log.entries.map((e) => e._wagerDesk.id)).toEqual(ids);

    const log = sqliteLog(storeOf(desk));
    const control = await harText(
      ids,
      async (slice) => {
        const found = await log.exportRows(slice);
        return readElsewhere(found) ? found.readHere() : found;
      },
      [],
      'control',
      harEntriesHere,
    );
    expect((JSON.parse(control) as Har).log.entries).toEqual(har.log.entries);
  });

  it('has its rows read from the file by the export thread of the test build (of the sources where no fresh build is there)', async () => {
    const { store, ids } = openFilled();
    const log = sqliteLog(store);
    const thread = HarThread.create(builtExportThread() ?? undefined)!;
    onTestFinished(() => thread.close());
    const text = await harText(ids, (slice) => log.exportRows(slice), [SECRET], 'built', thread.build);
    expect(thread.buildsInPlace()).toBe(false);
    const here = await harText(ids, (slice) => log.detailRows(slice), [SECRET], 'built', harEntriesHere);
    expect(text).toBe(here);
  });

  it('fails with the reason, and the desk’s code, when the thread cannot open the file', async () => {
    const { store, ids } = openFilled();
    const found = await sqliteLog(store).exportRows(ids);
    if (!readElsewhere(found)) throw new Error('the rows were read here');
    const source = found.readThere as SqliteRowSource;
    const gone: SqliteRowSource = { sqlite: { ...source.sqlite, file: `${tempDir()}/no-such-log.db` } };
    const thread = HarThread.create()!;
    onTestFinished(() => thread.close());
    let underWay = 0;
    const counted = {
      readThere: gone,
      readHere: found.readHere,
      underWay: () => ((underWay += 1), () => void (underWay -= 1)),
    };
    const failure = await thread.build({ ids, found: counted }, [SECRET]).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(DeskFailure);
    expect((failure as DeskFailure).code).toBe('io-error');
    expect((failure as DeskFailure).message).toMatch(
      /^The log \/.*\/no-such-log\.db could not be read for the export \(unable to open database file, SQLITE_CANTOPEN\)\.$/,
    );
    // A read that failed is over: the log no longer counts it.
    expect(underWay).toBe(0);
    // The thread is still there for the next export.
    expect(await thread.build({ ids, found }, [SECRET])).toBe(harEntriesText({ ids, found: await found.readHere() }, [SECRET]));
  });

  it('says in the desk’s words that a file which is not a database is damaged, naming it', async () => {
    const { store, ids } = openFilled();
    const found = await sqliteLog(store).exportRows(ids);
    if (!readElsewhere(found)) throw new Error('the rows were read here');
    const source = found.readThere as SqliteRowSource;
    const garbage = `${tempDir()}/not-a-log.db`;
    writeFileSync(garbage, Buffer.alloc(8192, 0x5a));
    const thread = HarThread.create()!;
    onTestFinished(() => thread.close());
    const failure = await thread.build({ ids, found: { ...found, readThere: { sqlite: { ...source.sqlite, file: garbage } } } }, [SECRET]).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(DeskFailure);
    expect((failure as DeskFailure).code).toBe('io-error');
    expect((failure as DeskFailure).message).toBe(
      `The database ${garbage} is damaged or is not a Wager Desk database (file is not a database). It was left as it is: ` +
        'move it aside or restore a backup, or use another data directory (--home or WAGER_DESK_HOME).',
    );
  });
});
