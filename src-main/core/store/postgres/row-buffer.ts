// The rows one group of the proxy's writes touches, gathered in memory and then written to PostgreSQL
// in one statement: every new row inserted (its answer already merged in when it came in the same
// group), and older rows updated once each (their answer, findings appended).
// A write runs synchronously against the buffer (as it runs inside SQLite's transaction); a write
// that throws leaves nothing in it.
import type { Finding } from '../../../shared/model';
import { boundAnswerNotes } from '../../capture/bounds';
import type { CaptureRows } from '../contract/capture-writer';
import { completionValues, errorCount, insertValues, type CompleteColumn, type InsertColumn } from '../rows/exchange-values';
import type { ExchangeCompletion, NewExchange } from '../../capture/new-exchange';

/**
 * A new row: its request's values and, when its answer came in the same group, the answer's. Kept as two
 * objects, each of one fixed shape, rather than one merged copy: a spread of forty keys made a copy per
 * row in dictionary mode, slow to build and to read column by column.
 */
export interface NewRow {
  values: Record<InsertColumn, unknown>;
  finish: Record<CompleteColumn, unknown> | null;
}

type Op =
  | { type: 'insert'; id: number; row: NewRow }
  | { type: 'finish'; id: number; values: Record<CompleteColumn, unknown> }
  | { type: 'findings'; id: number; findings: readonly Finding[] };

export interface BufferedStatements {
  inserts: NewRow[];
  ids: number[];
  /**
   * What happened to rows committed by an earlier group, one entry per row: its answer (the last one),
   * and the findings appended to it (as the JSON of the findings, and their error count).
   */
  updates: Array<{ id: number; finish: Record<CompleteColumn, unknown> | null; append: { findings: string; errors: number } | null }>;
}

export class RowBuffer implements CaptureRows {
  private ops: Op[] = [];

  constructor(
    /** Ids drawn from the exchanges' sequence before the group ran: each new row takes the next. */
    private readonly ids: number[],
  ) {}

  record(x: NewExchange): number {
    const id = this.ids.shift();
    if (id === undefined) throw new Error('No row id was reserved for this write.');
    this.ops.push({ type: 'insert', id, row: { values: insertValues(x), finish: null } });
    return id;
  }

  finish(id: number, c: ExchangeCompletion): void {
    this.ops.push({ type: 'finish', id, values: completionValues(c) });
  }

  addFindings(id: number, findings: readonly Finding[]): void {
    if (findings.length > 0) this.ops.push({ type: 'findings', id, findings: boundAnswerNotes(findings) });
  }

  /** Runs one write; if it throws, what it buffered is dropped and the ids it took are given back. */
  run<T>(write: (rows: CaptureRows) => T): T {
    const mark = this.ops.length;
    try {
      return write(this);
    } catch (err) {
      const undone = this.ops.splice(mark);
      for (let i = undone.length - 1; i >= 0; i--) {
        const op = undone[i]!;
        if (op.type === 'insert') this.ids.unshift(op.id);
      }
      throw err;
    }
  }

  /** The statements' data: each new row whole, and what happened to older rows. */
  statements(): BufferedStatements {
    const inserted = new Map<number, NewRow>();
    const finishes = new Map<number, Record<CompleteColumn, unknown>>();
    const appends = new Map<number, Finding[]>();
    for (const op of this.ops) {
      const row = inserted.get(op.id);
      if (op.type === 'insert') inserted.set(op.id, op.row);
      else if (op.type === 'finish') {
        if (row) row.finish = op.values;
        else finishes.set(op.id, op.values);
      } else if (row) {
        const merged = [...(JSON.parse(row.values.findings as string) as Finding[]), ...op.findings];
        row.values.findings = JSON.stringify(merged);
        row.values.error_count = errorCount(merged);
      } else appends.set(op.id, [...(appends.get(op.id) ?? []), ...op.findings]);
    }
    const updated = [...new Set([...finishes.keys(), ...appends.keys()])];
    return {
      inserts: [...inserted.values()],
      ids: [...inserted.keys()],
      updates: updated.map((id) => {
        const more = appends.get(id);
        return { id, finish: finishes.get(id) ?? null, append: more ? { findings: JSON.stringify(more), errors: errorCount(more) } : null };
      }),
    };
  }
}
