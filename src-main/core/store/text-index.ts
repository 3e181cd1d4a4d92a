// Fills the text index (exchange_text, migration 009) with the rows written since it was last filled:
// a batch of rows a transaction, each row's request and, when it has one, its answer. Called before a
// text search reads the index, so a search sees every row; rows written meanwhile by the proxy are not
// indexed on its capture path (bench/writes.ts: indexing in the commit made a capture ten times
// dearer). An answer that arrives for a row already indexed is indexed by the answer trigger.
import type { Db } from './open';
import { answerText, hasAnswer, requestText } from './migrations/009-search-and-saved-requests';

/** Rows a transaction indexes: short enough that a proxy writing meanwhile waits milliseconds, not seconds. */
const BATCH_ROWS = 2_000;

export class TextIndex {
  private readonly maxIdStmt;
  private readonly upToStmt;
  private readonly fillStmt;
  private readonly advanceStmt;

  constructor(private readonly db: Db) {
    this.maxIdStmt = db.prepare('SELECT coalesce(max(id), 0) FROM exchanges').pluck();
    this.upToStmt = db.prepare('SELECT indexed_upto FROM exchange_text_state').pluck();
    this.fillStmt = db.prepare(`
      INSERT INTO exchange_text (rowid, text)
        SELECT id * 2, ${requestText('new')} FROM exchanges AS new WHERE id > @after AND id <= @upTo
        UNION ALL
        SELECT id * 2 + 1, ${answerText('new')} FROM exchanges AS new WHERE id > @after AND id <= @upTo AND ${hasAnswer('new')}
        ORDER BY 1`);
    this.advanceStmt = db.prepare('UPDATE exchange_text_state SET indexed_upto = ?');
  }

  /** Rows written but not indexed yet. */
  pending(): number {
    return Math.max(0, (this.maxIdStmt.get() as number) - (this.upToStmt.get() as number));
  }

  /** Indexes every row written so far; returns how many were indexed. Cheap (two lookups) when there are none. */
  catchUp(): number {
    // A read-only connection searches what is indexed.
    if (this.db.readonly) return 0;
    let indexed = 0;
    while (this.pending() > 0) {
      indexed += this.db
        .transaction(() => {
          // Read again inside the write transaction: another process may have indexed meanwhile.
          const after = this.upToStmt.get() as number;
          const upTo = Math.min(this.maxIdStmt.get() as number, after + BATCH_ROWS);
          if (upTo <= after) return 0;
          this.fillStmt.run({ after, upTo });
          this.advanceStmt.run(upTo);
          return upTo - after;
        })
        .immediate();
    }
    return indexed;
  }
}

const indexes = new WeakMap<Db, TextIndex>();

/** The connection's TextIndex (its statements prepared once). */
export function textIndexOf(db: Db): TextIndex {
  let index = indexes.get(db);
  if (!index) indexes.set(db, (index = new TextIndex(db)));
  return index;
}
