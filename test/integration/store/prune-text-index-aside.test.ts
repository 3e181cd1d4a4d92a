// A prune pauses the text index's automerge while it deletes and asks the background indexer to stand
// aside (store/text-index-aside.ts); it puts back the setting it found and withdraws the notice after,
// also when it fails part-way.
import { describe, expect, it } from 'vitest';
import { connectionOf, type Store } from '../../../src-main/core/store/sqlite';
import { PRUNE_DELETING_UNTIL } from '../../../src-main/core/store/sqlite/text-index-aside';
import { indexedStore as indexedStoreOf } from '../../helpers/indexed-store';

const notice = (store: Store): string | undefined =>
  connectionOf(store).prepare('SELECT value FROM settings WHERE key = ?').pluck().get(PRUNE_DELETING_UNTIL) as string | undefined;
const automerge = (store: Store): unknown => connectionOf(store).prepare("SELECT v FROM exchange_text_config WHERE k = 'automerge'").pluck().get();

const indexedStore = (rows: number): Store => indexedStoreOf(rows, (i) => `Skua ${i}`);

describe('a prune and the text index', () => {
  it('pauses automerge while its batches run and restores the default after', async () => {
    const store = indexedStore(50);
    expect(automerge(store)).toBeUndefined();
    const seen: unknown[] = [];
    const report = await store.prune({ keep: 5, onBatch: () => seen.push(automerge(store)) });
    expect(report.deleted).toBe(45);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([0]));
    expect(automerge(store)).toBe(4);
    store.close();
  });

  it('keeps the indexer aside while its batches run, each renewing the notice, and withdraws it after', async () => {
    const store = indexedStore(50);
    const seen: number[] = [];
    const report = await store.prune({ keep: 5, onBatch: () => seen.push(Number(notice(store)) - Date.now()) });
    expect(report.deleted).toBe(45);
    expect(seen.length).toBeGreaterThan(0);
    // Each batch's notice runs a few seconds ahead: a killed prune holds the indexer back no longer.
    for (const ahead of seen) {
      expect(ahead).toBeGreaterThan(0);
      expect(ahead).toBeLessThanOrEqual(5_000);
    }
    expect(notice(store)).toBeUndefined();
    store.close();
  });

  it('puts back a setting of its own, and restores it when a batch fails', async () => {
    const store = indexedStore(50);
    connectionOf(store).exec("INSERT INTO exchange_text (exchange_text, rank) VALUES ('automerge', 8)");
    await expect(
      store.prune({
        keep: 5,
        onBatch: () => {
          throw new Error('the disk went away');
        },
      }),
    ).rejects.toThrow('the disk went away');
    expect(automerge(store)).toBe(8);
    expect(notice(store)).toBeUndefined();
    store.close();
  });
});
