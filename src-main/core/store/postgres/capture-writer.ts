// The PostgreSQL engine's capture writer: the proxy's writes of one turn (and of every turn while the
// previous group is still committing) run against a buffer, then commit in one transaction of a few
// statements: ids drawn from the exchanges' sequence, the new rows in one INSERT of one array per
// column, older rows' answers in one UPDATE, and a NOTIFY that wakes every desk following the log.
// Only then does any write learn that it is durable, so nothing is answered before its row commits.
//
// When the database is away (a refused or broken connection), the group fails at once and its
// requests are answered 503; the writer then tries to connect again at most every RECONNECT_MS, failing
// the groups in between without waiting, and carries on by itself once the database is back.
import type pg from 'pg';
import type { CaptureTx, CaptureWriter, WriteDone } from '../../proxy/capture-writer';
import type { SandboxOperator } from '../../sandbox';
import { COPIED_TABLES, type ColumnKind } from '../copy/copied-tables';
import { COMPLETE_COLUMNS, INSERT_COLUMNS, type CompleteColumn, type InsertColumn } from '../exchange-values';
import { isPostgresError } from './connect';
import { pgText } from './pg-text';
import { RowBuffer, type BufferedStatements } from './row-buffer';
import { BooksNotLoaded, PgBooks } from './sandbox-books';

/** The channel every commit of captures notifies (its payload: the highest id committed). */
export const EXCHANGES_CHANNEL = 'wager_desk_exchanges';

const RECONNECT_MS = 500;

// Each column's array type, from the one list of the exchanges' columns and their kinds (the copy's).
const EXCHANGE_COLUMNS = COPIED_TABLES.find((t) => t.name === 'exchanges')!.columns;
const ARRAY_OF: Record<ColumnKind, string> = { int: 'bigint', real: 'double precision', flag: 'boolean', text: 'text', bytes: 'bytea' };
const pgType = (column: InsertColumn | CompleteColumn): string => ARRAY_OF[EXCHANGE_COLUMNS[column]!];

const ROW_COLUMNS = [...INSERT_COLUMNS, ...COMPLETE_COLUMNS];

// One array per column: the statement's text never changes with the group's size, so the server plans it once.
const INSERT_SQL = `INSERT INTO exchanges (id, ${ROW_COLUMNS.join(', ')})
  SELECT * FROM unnest($1::bigint[], ${ROW_COLUMNS.map((c, i) => `$${i + 2}::${pgType(c)}[]`).join(', ')})`;

const FINISH_SQL = `UPDATE exchanges AS e SET ${COMPLETE_COLUMNS.map((c) => `${c} = u.${c}`).join(', ')}
  FROM unnest($1::bigint[], ${COMPLETE_COLUMNS.map((c, i) => `$${i + 2}::${pgType(c)}[]`).join(', ')}) AS u(id, ${COMPLETE_COLUMNS.join(', ')})
  WHERE e.id = u.id RETURNING e.id`;

// Findings are a JSON array's text: appended as text, so the row is never read back.
const APPEND_SQL = `UPDATE exchanges SET
  findings = CASE WHEN findings IS NULL OR findings = '[]' THEN $2 ELSE left(findings, -1) || ',' || substr($2, 2) END,
  error_count = error_count + $3
  WHERE id = $1`;

const RESERVE_SQL = "SELECT nextval(pg_get_serial_sequence('exchanges', 'id'))::float8 AS id FROM generate_series(1, $1)";

/** A column's value as PostgreSQL takes it: SQLite's 0/1 flag as a boolean, NaN as NULL (as SQLite stores it). */
function pgValue(column: InsertColumn | CompleteColumn, value: unknown): unknown {
  if (column === 'truncated') return value === 1 || value === true;
  if (typeof value === 'number' && Number.isNaN(value)) return null;
  return pgText(value);
}

function columnArrays<C extends InsertColumn | CompleteColumn>(columns: readonly C[], rows: ReadonlyArray<Record<C, unknown>>): unknown[][] {
  return columns.map((c) => rows.map((r) => pgValue(c, r[c])));
}

/** A row a write names is not there (deleted meanwhile): that write's own failure. */
class MissingRow extends Error {}

/** Whether the failure says the connection itself is gone (rather than one statement refused). */
function connectionLost(err: unknown): boolean {
  if (err instanceof MissingRow) return false;
  if (!isPostgresError(err)) return true;
  // Class 08: connection exceptions; 57P0x: the server is shutting down or restarting.
  const code = (err as { code?: string }).code ?? '';
  return code.startsWith('08') || code.startsWith('57P');
}

/** A write that met another transaction's commit of the same row: worth running again. */
function metAnotherCommit(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  // unique_violation, serialization_failure, deadlock_detected.
  return code === '23505' || code === '40001' || code === '40P01';
}

const CONFLICT_ATTEMPTS = 3;

interface Pending {
  write: (tx: CaptureTx) => unknown;
  done: WriteDone<unknown> | null;
}

export interface PgWriterSource {
  /** A new connection for the writer (the engine's URL and settings). */
  connect(): Promise<pg.Client>;
  /** The sandbox operator, deciding over books kept in this database; absent: the proxy only forwards. */
  sandbox?: PgSandbox;
}

export interface PgSandbox {
  operator: SandboxOperator;
  /** What a user the books have not seen starts with (the desk's setting). */
  startingBalance(): number;
}

/** Loading the books a write asks for, then running it again: a write needs a handful of rows at most. */
const MAX_LOADS = 8;

export class PgCaptureWriter implements CaptureWriter {
  private pending: Pending[] = [];
  private scheduled = false;
  private committing: Promise<void> | null = null;
  private closed = false;
  private client: pg.Client | null = null;
  /** When the last connection attempt failed: until RECONNECT_MS after it, groups fail without trying. */
  private downSince: number | null = null;
  private lastFailure: unknown = null;

  constructor(private readonly source: PgWriterSource) {}

  write<T>(write: (tx: CaptureTx) => T, done?: WriteDone<T>): void {
    if (this.closed) {
      done?.(new Error('The proxy is closing; nothing more is written.'), undefined);
      return;
    }
    this.pending.push({ write, done: (done as WriteDone<unknown>) ?? null });
    this.schedule();
  }

  /** PostgreSQL cannot commit synchronously: the write joins the next group. */
  writeNow<T>(write: (tx: CaptureTx) => T, done?: WriteDone<T>): void {
    this.write(write, done);
  }

  private schedule(): void {
    if (this.scheduled || this.committing !== null) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.committing = this.commitGroup(batch).finally(() => {
      this.committing = null;
      if (this.pending.length > 0) this.schedule();
    });
  }

  private async commitGroup(batch: Pending[]): Promise<void> {
    const client = await this.connection();
    if (client === null) return fail(batch, this.lastFailure);
    try {
      settle(batch, await this.commitOnce(client, batch));
      return;
    } catch (err) {
      if (connectionLost(err)) {
        this.drop(client, err);
        return fail(batch, err);
      }
    }
    // One refused write (a constraint) must not sink its neighbours: each again, alone. A write that
    // met another proxy's commit of the same row (a deposit both decided) runs again and then sees it.
    for (const one of batch) {
      if (this.client !== client) {
        fail([one], this.lastFailure);
        continue;
      }
      for (let attempt = 1; ; attempt++) {
        try {
          settle([one], await this.commitOnce(client, [one]));
          break;
        } catch (err) {
          if (connectionLost(err)) this.drop(client, err);
          else if (attempt < CONFLICT_ATTEMPTS && metAnotherCommit(err)) continue;
          fail([one], err);
          break;
        }
      }
    }
  }

  /**
   * Runs the writes against a buffer and commits what they buffered; each write's value or error. The
   * transaction begins when a write first needs the sandbox's books (they are read locked, inside it),
   * else just before the statements.
   */
  private async commitOnce(client: pg.Client, batch: Pending[]): Promise<Array<{ error: unknown; value: unknown }>> {
    let begun = false;
    try {
      // Drawn for this group only, never kept for a later one: an id drawn long before its row commits
      // would be a gap that followers (tail) stop looking at before it fills.
      const drawn = await client.query<{ id: number }>(RESERVE_SQL, [batch.length]);
      const buffer = new RowBuffer(drawn.rows.map((r) => r.id));
      const sandbox = this.source.sandbox;
      const books = sandbox ? new PgBooks(sandbox.startingBalance()) : null;
      const tx: CaptureTx = {
        rows: buffer,
        sandbox: (call) => {
          if (!sandbox || !books) throw new Error('This proxy keeps no sandbox books: it forwards.');
          return sandbox.operator.handleWith(books, call);
        },
      };
      const outcomes: Array<{ error: unknown; value: unknown }> = [];
      for (const p of batch) {
        for (let loads = 0; ; loads++) {
          try {
            outcomes.push({ error: null, value: buffer.run(() => (books ? books.run(() => p.write(tx)) : p.write(tx))) });
            break;
          } catch (error) {
            if (!(error instanceof BooksNotLoaded) || books === null || loads === MAX_LOADS) {
              outcomes.push({ error: error ?? new Error('write failed'), value: undefined });
              break;
            }
            if (!begun) await client.query('BEGIN');
            begun = true;
            await books.load(client, error);
          }
        }
      }
      await this.send(client, buffer.statements(), books, begun);
      return outcomes;
    } catch (err) {
      if (begun) await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  /** Writes the group's statements and commits; `begun`: the transaction is open already. */
  private async send(client: pg.Client, s: BufferedStatements, books: PgBooks | null, begun: boolean): Promise<void> {
    if (s.inserts.length === 0 && s.finishes.length === 0 && s.appends.length === 0 && !books?.changed()) {
      if (begun) await client.query('COMMIT');
      return;
    }
    if (!begun) await client.query('BEGIN');
    try {
      if (s.inserts.length > 0) await client.query({ name: 'wd-insert-exchanges', text: INSERT_SQL, values: [s.ids, ...columnArrays(ROW_COLUMNS, s.inserts)] });
      if (s.finishes.length > 0) {
        const done = await client.query({
          name: 'wd-finish-exchanges',
          text: FINISH_SQL,
          values: [
            s.finishes.map((f) => f.id),
            ...columnArrays(
              COMPLETE_COLUMNS,
              s.finishes.map((f) => f.values),
            ),
          ],
        });
        if (done.rowCount !== s.finishes.length) {
          const found = new Set(done.rows.map((r: { id: string | number }) => Number(r.id)));
          throw new MissingRow(`Exchange ${s.finishes.find((f) => !found.has(f.id))?.id} does not exist.`);
        }
      }
      for (const a of s.appends) {
        const changed = await client.query({ name: 'wd-append-findings', text: APPEND_SQL, values: [a.id, pgText(a.findings), a.errors] });
        if (changed.rowCount === 0) throw new MissingRow(`Exchange ${a.id} does not exist.`);
      }
      if (books?.changed()) await books.write(client);
      const touched = [...s.ids, ...s.finishes.map((f) => f.id), ...s.appends.map((a) => a.id)];
      if (touched.length > 0) await client.query('SELECT pg_notify($1, $2)', [EXCHANGES_CHANNEL, String(Math.max(...touched))]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  private async connection(): Promise<pg.Client | null> {
    if (this.client !== null) return this.client;
    if (this.downSince !== null && Date.now() - this.downSince < RECONNECT_MS) return null;
    try {
      this.client = await this.source.connect();
      this.downSince = null;
      return this.client;
    } catch (err) {
      this.downSince = Date.now();
      this.lastFailure = err;
      return null;
    }
  }

  private drop(client: pg.Client, err: unknown): void {
    if (this.client === client) this.client = null;
    this.downSince = Date.now();
    this.lastFailure = err;
    void client.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // What is queued still commits (the last answers' records), then the connection ends.
    while (this.committing !== null || this.pending.length > 0) {
      if (this.committing === null) this.flush();
      await this.committing;
    }
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

function settle(batch: Pending[], outcomes: Array<{ error: unknown; value: unknown }>): void {
  batch.forEach((p, i) => p.done?.(outcomes[i]!.error, outcomes[i]!.error === null ? outcomes[i]!.value : undefined));
}

function fail(batch: Pending[], error: unknown): void {
  for (const p of batch) p.done?.(error ?? new Error('The database could not be reached.'), undefined);
}
