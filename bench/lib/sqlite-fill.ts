// A desk's SQLite log filled as the proxy writes it, in large transactions: every row answered.
import type { ExchangeCompletion, NewExchange } from '../../src-main/core/store/sqlite';
import type { Desk } from '../../src-main/core/desk';
import { storeOf } from '../../src-main/core/desk/seams';

const SQLITE_TX = 50_000;

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
