// A store on a temporary directory with `rows` answered inbound captures, each body naming its memo, all
// in the text index: where the prune's tests start.
import { connectionOf, openStore, type Store } from '../../src-main/core/store/sqlite';
import { TextIndex } from '../../src-main/core/store/sqlite/text-index';
import { inboundRow } from './exchanges';
import { tempDir } from './temp';

export function indexedStore(rows: number, memo: (i: number) => string): Store {
  const store = openStore(tempDir());
  connectionOf(store).transaction(() => {
    for (let i = 0; i < rows; i++) {
      const row = store.exchanges.insert(inboundRow({ body: Buffer.from(JSON.stringify({ memo: memo(i) })) }));
      store.exchanges.complete(row.id, {
        response: { status: 200, headers: [], body: Buffer.from('ok') },
        error: null,
        durationMs: 1,
        completedAt: new Date().toISOString(),
      });
    }
  })();
  new TextIndex(connectionOf(store)).indexAll(Date.now() + 60_000);
  return store;
}
