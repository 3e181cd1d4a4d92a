// The checkpointer's worker copies the write-ahead log back beside a writer that never stops, and makes
// the log start over once it is past its bound: without that, a log under a steady load only grows.
import { readFileSync } from 'node:fs';
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
});
