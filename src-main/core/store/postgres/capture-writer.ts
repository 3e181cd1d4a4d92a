// The PostgreSQL engine's capture writer: the proxy's writes of one turn (and of every turn while the
// connections are busy with earlier groups) run against a buffer, then commit in one statement (atomic on
// its own) that inserts the new rows, updates older rows once each (their answers, findings), sends the
// NOTIFY that wakes every desk following the log and, when busy, draws ids for the next groups
// (spare-ids.ts). A group the spare ids do not cover draws the rest in a round trip of its own first.
// A group that decided sandbox callbacks runs in a transaction instead, with the books' rows it read
// locked. Only then does any write learn that it is durable, so nothing is answered before its row
// commits.
//
// When the database is away (a refused or broken connection), the group fails and its requests are
// answered 503. While it is away, each group that comes asks for a probe (one connection attempt, shared
// by every group waiting meanwhile, at most one every PROBE_GAP_MS) and waits for its answer: the first
// callback after the database answers again is committed, not refused on the strength of an older
// failure. A connection the server ends while idle (a restart) is forgotten when it ends, so the next
// group opens a new one instead of failing on the dead one.
import type pg from 'pg';
import type { CaptureTx, CaptureWriter, WriteDone } from '../contract/capture-writer';
import type { SandboxOperator } from '../../sandbox';
import { connectionEnded, isPostgresError } from './connect';
import { groupStatement, reserveIds } from './group-statement';
import { RowBuffer, type BufferedStatements } from './row-buffer';
import { SpareIds } from './spare-ids';
import { BooksNotLoaded, PgBooks } from './sandbox-books';

/** The channel every commit of captures notifies (its payload: the highest id committed). */
export const EXCHANGES_CHANNEL = 'wager_desk_exchanges';

/** The least time between two connection attempts while the database is away (a group waits for the next). */
const PROBE_GAP_MS = 100;

/** A row a write names is not there (deleted meanwhile): that write's own failure. */
class MissingRow extends Error {}

/** Whether the failure says the connection itself is gone (rather than one statement, or a missing row, refused). */
const connectionLost = (err: unknown): boolean => !(err instanceof MissingRow) && connectionEnded(err);

/** A write that met another transaction's commit of the same row: worth running again. */
function metAnotherCommit(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  // unique_violation, serialization_failure, deadlock_detected.
  return code === '23505' || code === '40001' || code === '40P01';
}

const CONFLICT_ATTEMPTS = 3;

/**
 * Groups in flight at once, each on its own connection. One: a group's statement costs the database
 * about 250 µs however few rows it carries (the parameters, the executor's setup of the table's indexes
 * and checks, the commit), against about 40 µs a row, so what a second group in flight gains in overlap
 * it pays in groups half the size. Measured with two: the same req/s at 32 connections for 1.25x the
 * database's CPU a capture, and 0.80x the req/s at 128.
 */
const LANES = 1;

interface Lane {
  client: pg.Client | null;
  busy: boolean;
}

interface Pending {
  write: (tx: CaptureTx) => unknown;
  done: WriteDone<unknown> | null;
  /** Ids to draw for it: the rows it may record (a capture records one). */
  newRows: number;
}

export interface PgWriterSource {
  /** A new connection for the writer (the engine's URL and settings). */
  connect(): Promise<pg.Client>;
  /** The sandbox operator, deciding over books kept in this database; absent: the proxy only forwards. */
  sandbox?: PgSandbox;
  /** Told once the writer has closed. */
  closed?: () => void;
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
  /** Groups being committed, one per lane at most. */
  private readonly committing = new Set<Promise<void>>();
  private readonly lanes: Lane[] = Array.from({ length: LANES }, () => ({ client: null, busy: false }));
  private closed = false;
  /** When the last connection attempt failed (null: none since the last success). */
  private downSince: number | null = null;
  private lastFailure: unknown = null;
  /** The connection attempt in flight while the database is away, shared by the groups that wait for it. */
  private probe: Promise<pg.Client | null> | null = null;
  /** Ids the last statements drew for the groups after them. */
  private readonly spare = new SpareIds();

  constructor(private readonly source: PgWriterSource) {}

  /** `newRows`: how many rows the write may record (an import's many; a capture's one). */
  write<T>(write: (tx: CaptureTx) => T, done?: WriteDone<T>, newRows = 1): void {
    if (this.closed) {
      done?.(new Error('The proxy is closing; nothing more is written.'), undefined);
      return;
    }
    this.pending.push({ write, done: (done as WriteDone<unknown>) ?? null, newRows });
    this.schedule();
  }

  /** PostgreSQL cannot commit synchronously: the write joins the next group. */
  writeNow<T>(write: (tx: CaptureTx) => T, done?: WriteDone<T>, newRows = 1): void {
    this.write(write, done, newRows);
  }

  private schedule(): void {
    if (this.scheduled || this.lanes.every((l) => l.busy)) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const lane = this.lanes.find((l) => !l.busy);
    if (lane === undefined) return;
    const batch = this.pending;
    this.pending = [];
    lane.busy = true;
    const committing = this.commitGroup(lane, batch).finally(() => {
      lane.busy = false;
      this.committing.delete(committing);
      if (this.pending.length > 0) this.schedule();
    });
    this.committing.add(committing);
  }

  private async commitGroup(lane: Lane, batch: Pending[]): Promise<void> {
    const client = await this.connection(lane);
    if (client === null) return fail(batch, this.lastFailure);
    try {
      settle(batch, await this.commitOnce(client, batch));
      return;
    } catch (err) {
      if (connectionLost(err)) {
        this.drop(lane, err);
        return fail(batch, err);
      }
    }
    // One refused write (a constraint) must not sink its neighbours: each again, alone. A write that
    // met another proxy's commit of the same row (a deposit both decided) runs again and then sees it.
    for (const one of batch) {
      if (lane.client !== client) {
        fail([one], this.lastFailure);
        continue;
      }
      for (let attempt = 1; ; attempt++) {
        try {
          settle([one], await this.commitOnce(client, [one]));
          break;
        } catch (err) {
          if (connectionLost(err)) this.drop(lane, err);
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
      // The spare ids first; a round trip only for what they lack. A group of answers only (common when
      // forwarding) needs none.
      const wanted = batch.reduce((n, p) => n + p.newRows, 0);
      const drawn = this.spare.take(wanted);
      if (drawn.length < wanted) drawn.push(...(await client.query<{ id: number }>(reserveIds(wanted - drawn.length))).rows.map((r) => r.id));
      const buffer = new RowBuffer(drawn);
      const sandbox = this.source.sandbox;
      const books = sandbox ? new PgBooks(() => sandbox.startingBalance()) : null;
      const tx: CaptureTx = {
        rows: buffer,
        sandbox: (call) => {
          if (!sandbox || !books) throw new Error('This proxy keeps no sandbox books: it forwards.');
          return sandbox.operator.handleWith(books, call);
        },
      };
      const run = (p: Pending): unknown => buffer.run(() => (books ? books.run(() => p.write(tx)) : p.write(tx)));
      const outcomes: Array<{ error: unknown; value: unknown }> = [];
      for (let i = 0, loads = 0; i < batch.length;) {
        try {
          outcomes.push({ error: null, value: run(batch[i]!) });
        } catch (error) {
          if (error instanceof BooksNotLoaded && books !== null && loads < MAX_LOADS) {
            if (!begun) await client.query('BEGIN');
            begun = true;
            await books.load(client, alsoNeeded(error, batch.slice(i + 1), run));
            loads++;
            continue;
          }
          outcomes.push({ error: error ?? new Error('write failed'), value: undefined });
        }
        i++;
        loads = 0;
      }
      const busy = this.pending.length > 0 || this.lanes.filter((l) => l.busy).length > 1;
      await this.send(client, buffer.statements(), books, begun, SpareIds.ahead(wanted, busy));
      return outcomes;
    } catch (err) {
      if (begun) await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  /**
   * Writes the group and commits: one statement, or inside the transaction the sandbox's books began.
   * `drawAhead`: ids the statement draws for the groups after it.
   */
  private async send(client: pg.Client, s: BufferedStatements, books: PgBooks | null, begun: boolean, drawAhead: number): Promise<void> {
    const rows = s.inserts.length > 0 || s.updates.length > 0;
    if (!rows && !books?.changed()) {
      if (begun) await client.query('COMMIT');
      return;
    }
    try {
      if (books?.changed()) {
        if (!begun) await client.query('BEGIN');
        begun = true;
        await books.write(client);
      }
      if (rows) await this.writeRows(client, s, drawAhead);
      if (begun) await client.query('COMMIT');
    } catch (err) {
      if (begun) await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  private async writeRows(client: pg.Client, s: BufferedStatements, drawAhead: number): Promise<void> {
    const result = await client.query<{ inserted: number; updated: number[]; next_ids: number[] }>(groupStatement(s, EXCHANGES_CHANNEL, drawAhead));
    // Drawn whatever becomes of this group: a sequence's value is never handed out twice.
    this.spare.add(result.rows[0]!.next_ids);
    const updated = new Set(result.rows[0]!.updated);
    const missing = s.updates.find((u) => !updated.has(u.id));
    if (missing) throw new MissingRow(`Exchange ${missing.id} does not exist.`);
  }

  private async connection(lane: Lane): Promise<pg.Client | null> {
    if (lane.client !== null) return lane.client;
    // Away: the probe's connection, if it got one and no other lane took it first; else one of its own
    // (the database answered), or none (it did not).
    const probed = this.downSince !== null ? await this.probeOnce() : undefined;
    if (probed === null) return null;
    const untaken = probed !== undefined && !this.lanes.some((l) => l.client === probed);
    if (untaken) return this.use(lane, probed);
    const client = await this.connect();
    return client === null ? null : this.use(lane, client);
  }

  /** One connection attempt; a failure marks the database away. */
  private async connect(): Promise<pg.Client | null> {
    try {
      const client = await this.source.connect();
      this.downSince = null;
      return client;
    } catch (err) {
      this.downSince = Date.now();
      this.lastFailure = err;
      return null;
    }
  }

  /** The attempt every group waiting while the database is away shares, made PROBE_GAP_MS after the last. */
  private probeOnce(): Promise<pg.Client | null> {
    this.probe ??= (async () => {
      const wait = (this.downSince ?? 0) + PROBE_GAP_MS - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      return this.connect();
    })().finally(() => (this.probe = null));
    return this.probe;
  }

  /** Gives `lane` the connection, and forgets it as soon as the server ends it. */
  private use(lane: Lane, client: pg.Client): pg.Client {
    lane.client = client;
    const gone = (): void => {
      if (lane.client === client) lane.client = null;
    };
    client.on('end', gone);
    client.on('error', (err) => {
      if (!isPostgresError(err)) gone();
    });
    return client;
  }

  private drop(lane: Lane, err: unknown): void {
    const client = lane.client;
    lane.client = null;
    this.downSince = Date.now();
    this.lastFailure = err;
    void client?.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // What is queued still commits (the last answers' records), then the connection ends.
    while (this.committing.size > 0 || this.pending.length > 0) {
      if (this.pending.length > 0) this.flush();
      await Promise.race(this.committing);
    }
    for (const lane of this.lanes) {
      const client = lane.client;
      lane.client = null;
      await client?.end().catch(() => undefined);
    }
    this.source.closed?.();
  }
}

/** Thrown by a write tried only to learn what it reads: undoes what it did, as a failure would. */
const TRIED = Symbol('tried');

/**
 * What `first` asks for, and what each write of `rest` reads that is not loaded yet (each tried and undone).
 * Loaded together, they make a group's loads as many as its longest chain of reads (a deposit, then its
 * user), not one or two a callback: groups grow when the database is slow, and a load a callback, each
 * holding the rows read so far locked, would make each group slower than the last.
 */
function alsoNeeded(first: BooksNotLoaded, rest: readonly Pending[], run: (p: Pending) => unknown): BooksNotLoaded {
  const needs = [first];
  for (const p of rest) {
    try {
      run({
        ...p,
        write: (tx) => {
          p.write(tx);
          throw TRIED;
        },
      });
    } catch (err) {
      if (err instanceof BooksNotLoaded) needs.push(err);
    }
  }
  return BooksNotLoaded.all(needs);
}

function settle(batch: Pending[], outcomes: Array<{ error: unknown; value: unknown }>): void {
  batch.forEach((p, i) => p.done?.(outcomes[i]!.error, outcomes[i]!.error === null ? outcomes[i]!.value : undefined));
}

function fail(batch: Pending[], error: unknown): void {
  for (const p of batch) p.done?.(error ?? new Error('The database could not be reached.'), undefined);
}
