// SQLite's upkeep beside a running proxy (contract/capture-upkeep.ts): the WAL checkpointer and the text
// indexer, each on a worker thread with its own connection, so neither runs on the capture path.
import type { CaptureUpkeep } from '../contract/capture-upkeep';
import { Checkpointer } from './checkpointer';
import type { Db } from './db';
import { TextIndexer } from './text-indexer';

/**
 * `nativeBinding`: better_sqlite3.node for the running ABI, when not the default (Electron); the workers
 * load it too. `readsUnderWay`: whether the desk's reading threads are reading (the checkpointer leaves
 * the log's start-over for later then: checkpointer.ts).
 */
export function sqliteUpkeep(db: Db, nativeBinding?: string, readsUnderWay?: () => boolean): CaptureUpkeep {
  const checkpointer = Checkpointer.start(db, { nativeBinding, ...(readsUnderWay ? { readsUnderWay } : {}) });
  const textIndexer = TextIndexer.start(db, nativeBinding);
  return { stop: async () => void (await Promise.all([checkpointer?.stop(), textIndexer?.stop()])) };
}
