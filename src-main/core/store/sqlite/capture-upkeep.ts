// SQLite's upkeep beside a running proxy (contract/capture-upkeep.ts): the WAL checkpointer and the text
// indexer, each on a worker thread with its own connection, so neither runs on the capture path.
import type { CaptureUpkeep } from '../contract/capture-upkeep';
import { connectionOf, type Store } from './index';
import { TextIndexer } from './text-indexer';

/**
 * The store's own checkpointer (it knows when the store's reading threads read: checkpointer.ts) and a
 * text indexer. `nativeBinding`: better_sqlite3.node for the running ABI, when not the default
 * (Electron); the indexer's worker loads it too.
 */
export function sqliteUpkeep(store: Store, nativeBinding?: string): CaptureUpkeep {
  const checkpointer = store.checkpointInBackground();
  const textIndexer = TextIndexer.start(connectionOf(store), nativeBinding);
  return { stop: async () => void (await Promise.all([checkpointer?.stop(), textIndexer?.stop()])) };
}
