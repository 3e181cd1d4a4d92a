import { describe, expect, it } from 'vitest';
import { connectionOf, openStore } from '../../../src-main/core/store/sqlite';
import { MAX_HAR_EXCHANGES, selectForHar } from '../../../src-main/core/export/har-select';
import { sqliteLog } from '../../../src-main/core/store/sqlite/log';
import { inboundRow } from '../../helpers/exchanges';
import { tempDir } from '../../helpers/temp';

describe('a HAR export of a filter with no limit', () => {
  it('holds the newest MAX_HAR_EXCHANGES, oldest first, and says it was cut', async () => {
    const store = openStore(tempDir());
    connectionOf(store).transaction(() => {
      for (let i = 0; i < MAX_HAR_EXCHANGES + 5; i++) store.exchanges.insert(inboundRow());
    })();
    const all = await selectForHar(sqliteLog(store), {});
    expect(all.ids).toHaveLength(MAX_HAR_EXCHANGES);
    expect(all.ids[0]).toBe(6);
    expect(all.ids.at(-1)).toBe(MAX_HAR_EXCHANGES + 5);
    expect(all.description).toMatch(/newest 10000 .*narrow the filter/);
    // A query's own limit wins, and a short list is not called cut.
    expect((await selectForHar(sqliteLog(store), { limit: 3 })).description).toBe('3 captured callbacks');
    store.close();
  });
});
