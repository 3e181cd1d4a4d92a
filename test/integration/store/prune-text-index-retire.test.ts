// A prune that deletes nearly every row puts a fresh text index in place of the old one instead of
// deleting each row's documents (store/text-index-retire.ts); a smaller prune deletes them as before;
// a prune cut short is finished by the next one. Searches stay right throughout.
import { describe, expect, it } from 'vitest';
import { connectionOf, type Store } from '../../../src-main/core/store/sqlite';
import { TextIndex } from '../../../src-main/core/store/sqlite/text-index';
import { swapInFreshIndex } from '../../../src-main/core/store/sqlite/text-index-retire';
import { inboundRow } from '../../helpers/exchanges';
import { indexedStore as indexedStoreOf } from '../../helpers/indexed-store';

/** Over the prune's threshold for retiring the index (10,000 rows deleted). */
const ROWS = 12_000;

const db = (store: Store) => connectionOf(store);
const state = (store: Store) =>
  db(store).prepare('SELECT indexed_upto AS indexedUpto, retiring FROM exchange_text_state').get() as { indexedUpto: number; retiring: number };
/** Documents in the text index, tombstones aside. */
const documents = (store: Store): number => db(store).prepare('SELECT count(*) FROM exchange_text_docsize').pluck().get() as number;
const retiredTables = (store: Store): string[] =>
  db(store).prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'exchange_text_retired%'").pluck().all() as string[];
const found = (store: Store, search: string): number[] => store.exchanges.list({ search }).items.map((x) => x.id);

/** A log of `rows` indexed captures, `Skua <i>#` in each body (`#` ends the word: `Skua 1` is not `Skua 10`). */
const indexedStore = (rows = ROWS): Store => indexedStoreOf(rows, (i) => `Skua ${i}#`);

describe('a prune that deletes nearly every row and the text index', () => {
  it('deletes rows only while it runs, then swaps in an empty index that the indexer fills with the rows kept', async () => {
    const store = indexedStore();
    const before = documents(store);
    expect(before).toBe(ROWS * 2);
    const during: Array<{ documents: number; retiring: number; kept: number[]; gone: number[] }> = [];
    const report = await store.prune({
      keep: 100,
      onBatch: () =>
        during.push({ documents: documents(store), retiring: state(store).retiring, kept: found(store, 'Skua 11999#'), gone: found(store, 'Skua 0#') }),
    });
    expect(report.deleted).toBe(ROWS - 100);
    expect(during.length).toBeGreaterThan(1);
    for (const seen of during) {
      // The index is left alone: every document still there, no tombstone written.
      expect(seen.documents).toBe(before);
      expect(seen.retiring).toBe(1);
      // A deleted row is never found through its documents; a kept one is.
      expect(seen.kept).toEqual([ROWS]);
      expect(seen.gone).toEqual([]);
    }
    // After: a fresh index, the old one gone, every row to be indexed again.
    expect(retiredTables(store)).toEqual([]);
    expect(documents(store)).toBe(0);
    expect(state(store)).toEqual({ indexedUpto: 0, retiring: 0 });
    expect(found(store, 'Skua 11999#')).toEqual([ROWS]);
    expect(found(store, 'Skua 5#')).toEqual([]);
    new TextIndex(db(store)).indexAll(Date.now() + 60_000);
    expect(documents(store)).toBe(200);
    expect(found(store, 'Skua 11999#')).toEqual([ROWS]);
    // The delete trigger names the new index: a later delete removes its row's documents there.
    await store.deleteExchanges({ ids: [ROWS] });
    expect(documents(store)).toBe(198);
    store.close();
  });

  it("a prune that keeps more deletes each row's documents, as before", async () => {
    const store = indexedStore();
    const report = await store.prune({ keep: ROWS - 2_000 });
    expect(report.deleted).toBe(2_000);
    expect(documents(store)).toBe((ROWS - 2_000) * 2);
    expect(state(store)).toEqual({ indexedUpto: ROWS, retiring: 0 });
    expect(found(store, 'Skua 10#')).toEqual([]);
    store.close();
  });

  it('a prune cut short while retiring is finished by the next prune, and searches stay right meanwhile', async () => {
    const store = indexedStore();
    let batches = 0;
    await expect(
      store.prune({
        keep: 100,
        onBatch: () => {
          if (++batches === 3) throw new Error('the disk went away');
        },
      }),
    ).rejects.toThrow('the disk went away');
    expect(state(store).retiring).toBe(1);
    expect(found(store, 'Skua 11999#')).toEqual([ROWS]);
    // Nothing left to delete by this one's terms; it finishes the retirement all the same.
    const report = await store.prune({ keep: ROWS });
    expect(report.deleted).toBe(0);
    expect(state(store)).toEqual({ indexedUpto: 0, retiring: 0 });
    expect(retiredTables(store)).toEqual([]);
    expect(found(store, 'Skua 11999#')).toEqual([ROWS]);
    store.close();
  });

  it('an old index left behind (a prune cut short while it dropped it) is dropped by the next prune, the fresh one kept', async () => {
    const store = indexedStore();
    swapInFreshIndex(db(store));
    new TextIndex(db(store)).indexAll(Date.now() + 60_000);
    expect(retiredTables(store).length).toBeGreaterThan(0);
    expect(documents(store)).toBe(ROWS * 2);
    const report = await store.prune({ keep: ROWS });
    expect(report.deleted).toBe(0);
    expect(retiredTables(store)).toEqual([]);
    // Not retired again: the fresh index and its progress stay.
    expect(documents(store)).toBe(ROWS * 2);
    expect(state(store)).toEqual({ indexedUpto: ROWS, retiring: 0 });
    expect(found(store, 'Skua 11999#')).toEqual([ROWS]);
    store.close();
  });

  it('after a prune of everything, the next capture takes a new id and is found once indexed', async () => {
    const store = indexedStore();
    await store.prune({ keep: 0 });
    const next = store.exchanges.insert(inboundRow({ body: Buffer.from('{"memo":"Gannet"}') }));
    expect(next.id).toBe(ROWS + 1);
    new TextIndex(db(store)).indexAll(Date.now() + 60_000);
    expect(found(store, 'Gannet')).toEqual([ROWS + 1]);
    expect(found(store, 'Skua')).toEqual([]);
    store.close();
  });
});
