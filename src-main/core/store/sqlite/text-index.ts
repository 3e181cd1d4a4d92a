// Filling the text index (exchange_text, migrations 009 and 012): a batch indexes the rows after
// exchange_text_state.indexed_upto that are complete, stopping at the first row still in flight (its
// answer is coming: indexing it now would need a trigger on the proxy's answer UPDATE to add the answer
// later). A row in flight for long (IN_FLIGHT_WAIT_MS, or IN_FLIGHT_WAIT_ROWS rows newer than it) is
// indexed without its answer and listed in exchange_text_unanswered; each batch indexes the answers of
// listed rows that have come since. The background indexer (text-indexer.ts) runs these statements on
// its own connection; TextIndex runs them on a given one (tests, benchmarks, an in-memory database).
import type { Statement } from 'better-sqlite3';
import type { Db } from './open';
import { answerText, hasAnswer, requestText } from './migrations/009-search-and-saved-requests';
import { IN_FLIGHT_WAIT_MS, IN_FLIGHT_WAIT_ROWS, isComplete } from '../rows/in-flight';

/** The statements of one batch; parameters: @after, @rows, @cutoff (ISO time), @waitRows, @upTo. */
export const TEXT_INDEX_SQL = {
  upTo: 'SELECT indexed_upto FROM exchange_text_state',
  /** Whether a batch has anything to do: read without the write lock, so an idle indexer never takes it. */
  work: `
    SELECT (SELECT coalesce(max(id), 0) FROM exchanges) > (SELECT indexed_upto FROM exchange_text_state)
        OR EXISTS (SELECT 1 FROM exchange_text_unanswered AS u CROSS JOIN exchanges AS e ON e.id = u.id WHERE ${isComplete('e')})`,
  maxId: 'SELECT coalesce(max(id), 0) FROM exchanges',
  /**
   * The last id this batch indexes: at most @rows rows, up to the newest, short of a row in flight that
   * may still get its answer. Counted in rows, not ids: beside a prune the ids ahead are sparse, and a
   * batch sized by ids would race through the deleted ones and then hold the write lock for a thousand
   * rows at once when it reached the rows still there.
   */
  bound: `
    SELECT min(
      coalesce((SELECT id FROM exchanges WHERE id > @after ORDER BY id LIMIT 1 OFFSET @rows - 1), @after + @rows),
      (SELECT coalesce(max(id), 0) FROM exchanges),
      coalesce((SELECT min(id) - 1 FROM (SELECT id, at, completed_at, res_status, error FROM exchanges WHERE id > @after ORDER BY id LIMIT @rows) AS e
                WHERE NOT ${isComplete('e')} AND julianday(e.at) > julianday(@cutoff)
                  AND e.id > (SELECT coalesce(max(id), 0) FROM exchanges) - @waitRows), 9223372036854775807))`,
  fill: `
    INSERT INTO exchange_text (rowid, text)
      SELECT id * 2, ${requestText('new')} FROM exchanges AS new WHERE id > @after AND id <= @upTo
      UNION ALL
      SELECT id * 2 + 1, ${answerText('new')} FROM exchanges AS new WHERE id > @after AND id <= @upTo AND ${hasAnswer('new')}
      ORDER BY 1`,
  listInFlight: `INSERT INTO exchange_text_unanswered (id) SELECT id FROM exchanges AS e WHERE id > @after AND id <= @upTo AND NOT ${isComplete('e')}`,
  advance: 'UPDATE exchange_text_state SET indexed_upto = @upTo',
  indexLateAnswers: `
    INSERT INTO exchange_text (rowid, text)
      SELECT new.id * 2 + 1, ${answerText('new')} FROM exchange_text_unanswered AS u CROSS JOIN exchanges AS new ON new.id = u.id WHERE ${hasAnswer('new')}`,
  unlistAnswered: `
    DELETE FROM exchange_text_unanswered
      WHERE id IN (SELECT e.id FROM exchange_text_unanswered AS u CROSS JOIN exchanges AS e ON e.id = u.id WHERE ${isComplete('e')})`,
} as const;
// (CROSS JOIN: the list, a handful of rows, is read first; the planner, knowing neither size, would
// scan the exchanges.)

/** Rows a batch indexes at most; the background indexer sizes batches by time under this. */
export const MAX_BATCH_ROWS = 2_000;

export interface BatchOutcome {
  /** Rows indexed by this batch. */
  indexed: number;
  /** Rows after indexed_upto once it committed (some may be waiting for their answers). */
  pending: number;
}

export class TextIndex {
  private readonly stmt: { [K in keyof typeof TEXT_INDEX_SQL]: Statement<unknown[]> };
  private readonly batchTx;

  constructor(db: Db) {
    this.stmt = Object.fromEntries(Object.entries(TEXT_INDEX_SQL).map(([k, sql]) => [k, db.prepare<unknown[]>(sql)])) as TextIndex['stmt'];
    this.batchTx = db.transaction((rows: number, cutoff: string): BatchOutcome => {
      const after = this.stmt.upTo.pluck().get() as number;
      const upTo = this.stmt.bound.pluck().get({ after, rows, cutoff, waitRows: IN_FLIGHT_WAIT_ROWS }) as number;
      if (upTo > after) {
        this.stmt.fill.run({ after, upTo });
        this.stmt.listInFlight.run({ after, upTo });
        this.stmt.advance.run({ upTo });
      }
      this.stmt.indexLateAnswers.run();
      this.stmt.unlistAnswered.run();
      return { indexed: Math.max(0, upTo - after), pending: (this.stmt.maxId.pluck().get() as number) - Math.max(upTo, after) };
    });
  }

  /** Rows written and not indexed yet. */
  pending(): number {
    return Math.max(0, (this.stmt.maxId.pluck().get() as number) - (this.stmt.upTo.pluck().get() as number));
  }

  /** One batch of at most `rows` rows, in one IMMEDIATE transaction. */
  batch(rows: number = MAX_BATCH_ROWS, now: number = Date.now()): BatchOutcome {
    return this.batchTx.immediate(rows, new Date(now - IN_FLIGHT_WAIT_MS).toISOString());
  }

  /** Batches until no complete row is left to index (rows in flight may stay behind); returns the rows indexed. */
  indexAll(now: number = Date.now()): number {
    let total = 0;
    for (;;) {
      const { indexed } = this.batch(MAX_BATCH_ROWS, now);
      total += indexed;
      if (indexed === 0) return total;
    }
  }
}
