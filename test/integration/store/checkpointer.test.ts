// The checkpointer's worker copies the write-ahead log back beside a writer that never stops, and makes
// the log start over once it is past its bound: without that, a log under a steady load only grows. It
// does not try that while the desk's reads are under way (its reading threads', its export thread's): the
// try would hold the write lock, and every capture with it, waiting for readers that stay.
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { connectionOf, openStore } from '../../../src-main/core/store/sqlite';
import { Checkpointer } from '../../../src-main/core/store/sqlite/checkpointer';
import { inboundRow } from '../../helpers/exchanges';
import { tempDir } from '../../helpers/temp';

describe('the background checkpointer', () => {
  it('keeps the log bounded while captures keep coming', async () => {
    const store = openStore(tempDir());
    const db = connectionOf(store);
    const restartFrames = 64;
    const checkpointer = Checkpointer.start(db, { restartFrames, periodMs: 20 });
    expect(checkpointer).not.toBeNull();
    try {
      // Commits one after another, each a few pages, as a proxy under load makes them; the event loop
      // turns between two (as between two group commits), so the worker's messages come in.
      for (let i = 0; checkpointer!.restartCount() < 3; i++) {
        if (i > 20_000) throw new Error('the log was never made to start over');
        store.immediate(() => store.exchanges.insert(inboundRow({ body: Buffer.from(`{"memo":"Shearwater ${i}"}`) })));
        await new Promise((resolve) => setImmediate(resolve));
      }
      store.immediate(() => store.exchanges.insert(inboundRow({ body: Buffer.from('{"memo":"after"}') })));
      // The log's header counts its starts over (the checkpoint sequence, bytes 12 to 15).
      const header = readFileSync(`${db.name}-wal`).subarray(0, 32);
      expect(header.readUInt32BE(12)).toBeGreaterThanOrEqual(3);
    } finally {
      await checkpointer!.stop();
    }
    store.close();
  }, 60_000);

  it('leaves the start-over for later while the desk reads, and makes it once the reads pause', async () => {
    const store = openStore(tempDir());
    const db = connectionOf(store);
    let reading = true;
    const checkpointer = Checkpointer.start(db, { restartFrames: 64, periodMs: 20, readsUnderWay: () => reading });
    expect(checkpointer).not.toBeNull();
    // A reader in the log, as a reading thread walking it for a search: a RESTART now could only wait for it.
    const reader = new Database(db.name, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM exchanges').get();
    const write = async (i: number): Promise<void> => {
      store.immediate(() => store.exchanges.insert(inboundRow({ body: Buffer.from(`{"memo":"Petrel ${i}"}`) })));
      await new Promise((resolve) => setImmediate(resolve));
    };
    try {
      let i = 0;
      for (; checkpointer!.deferredCount() < 3; i++) {
        if (i > 20_000) throw new Error('the start-over was never due');
        await write(i);
      }
      expect(checkpointer!.restartCount()).toBe(0);
      // The reads pause: the next period that finds the log past its bound makes it start over.
      reading = false;
      reader.exec('COMMIT');
      for (const start = i; checkpointer!.restartCount() < 1; i++) {
        if (i > start + 20_000) throw new Error('the log was never made to start over after the reads');
        await write(i);
      }
    } finally {
      reader.close();
      await checkpointer!.stop();
    }
    store.close();
  }, 60_000);

  it("counts another thread's read of the file (the export thread's) as a read under way, as the store starts it", async () => {
    const store = openStore(tempDir());
    const checkpointer = store.checkpointInBackground();
    expect(checkpointer).not.toBeNull();
    // Past the log's bound in a few hundred commits: bodies of 64 KiB.
    const write = async (i: number): Promise<void> => {
      store.immediate(() => store.exchanges.insert(inboundRow({ body: Buffer.alloc(64 * 1024, 65 + (i % 26)) })));
      await new Promise((resolve) => setImmediate(resolve));
    };
    const readEnded = store.readElsewhere();
    const other = store.readElsewhere();
    try {
      let i = 0;
      for (; checkpointer!.deferredCount() < 1; i++) {
        if (i > 20_000) throw new Error('the start-over was never due');
        if (checkpointer!.restartCount() > 0) throw new Error('the log was made to start over while a read was under way');
        await write(i);
      }
      expect(checkpointer!.restartCount()).toBe(0);
      // One read ended twice by mistake counts once: the other, still under way, keeps the start-over put off.
      readEnded();
      readEnded();
      const deferred = checkpointer!.deferredCount();
      for (const start = i; checkpointer!.deferredCount() === deferred; i++) {
        if (i > start + 20_000) throw new Error('the start-over was never due again');
        if (checkpointer!.restartCount() > 0) throw new Error('the log was made to start over while a read was under way');
        await write(i);
      }
      other();
      // The log is still past its bound: the next period makes it start over, with no write needed (a
      // stream of writes meanwhile only makes the log longer to copy, and each try wait for the lock).
      await expect.poll(() => checkpointer!.restartCount(), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    } finally {
      await checkpointer!.stop();
      await store.closeReaders();
    }
    store.close();
  }, 60_000);
});
