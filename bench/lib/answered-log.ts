// The log the export benchmarks read (search-beside, export-cost): rows every one answered, as an operator's
// log holds them, and the size of the export a UI asks for. SQLite's filled as the proxy writes it, in large
// transactions.
import type { ExchangeCompletion, NewExchange } from '../../src-main/core/store/sqlite';
import type { Desk } from '../../src-main/core/desk';
import { storeOf } from '../../src-main/core/desk/seams';

const SQLITE_TX = 50_000;

/** Captures a HAR export of the exporting UI holds: a screenful of pages, as a ticket would attach. */
export const EXPORT_ROWS = 500;

/** Every filled row's answer: the log of an operator that answered every callback. */
export const ANSWER: ExchangeCompletion = {
  response: { status: 200, headers: [['content-type', 'application/json']], body: Buffer.from('{"status":"ok"}') },
  error: null,
  durationMs: 4,
  completedAt: new Date(0).toISOString(),
};

/** `rows` rows made by `row`, each answered with `answer`. */
export function fillSqlite(desk: Desk, rows: number, row: (i: number) => NewExchange, answer: ExchangeCompletion): void {
  const store = storeOf(desk);
  for (let done = 0; done < rows;) {
    const n = Math.min(SQLITE_TX, rows - done);
    store.immediate(() => {
      for (let i = 0; i < n; i++) store.exchanges.finish(store.exchanges.record(row(done + i)), answer);
    });
    done += n;
  }
}
