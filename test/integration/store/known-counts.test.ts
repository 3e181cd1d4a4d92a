// The counts a status or an exchange event carries are known without SQL on the desk's own connection
// (the thread that answers callbacks): the last count read on a reading thread, and the rows this
// connection wrote since. The connection is closed to show it: any statement there would throw.
import { describe, expect, it } from 'vitest';
import { connectionOf, openStore } from '../../../src-main/core/store/sqlite';
import { sqliteLog } from '../../../src-main/core/store/sqlite/log';
import { inboundRow } from '../../helpers/exchanges';
import { tempDir } from '../../helpers/temp';

describe("the log's known counts", () => {
  it('are the last count and the rows written since, read with no statement on the desk connection', async () => {
    const store = openStore(tempDir());
    try {
      const log = sqliteLog(store);
      for (let i = 0; i < 3; i++) store.exchanges.insert(inboundRow());
      expect(await log.counts()).toEqual({ inbound: 3, outbound: 0 });
      store.exchanges.insert(inboundRow());
      store.exchanges.insert(inboundRow({ direction: 'outbound', kind: 'other' }));
      connectionOf(store).close();
      expect(log.knownCounts()).toEqual({ inbound: 4, outbound: 1 });
    } finally {
      store.close();
    }
  });

  it('are brought up to date on a reading thread when never counted', async () => {
    const dir = tempDir();
    const writer = openStore(dir);
    for (let i = 0; i < 5; i++) writer.exchanges.insert(inboundRow());
    writer.close();
    const store = openStore(dir);
    try {
      const log = sqliteLog(store);
      // Never counted: what it knows now is short, and a count starts beside the call.
      expect(log.knownCounts()).toEqual({ inbound: 0, outbound: 0 });
      await expect.poll(() => log.knownCounts()).toEqual({ inbound: 5, outbound: 0 });
    } finally {
      store.close();
    }
  });
});
