// The sandbox operator's books in PostgreSQL, as one group of the proxy's writes sees them. The operator
// decides synchronously (as it does inside SQLite's transaction), so the books it reads are loaded
// first: a read of a user or deposit not loaded yet stops the write with BooksNotLoaded, the writer
// loads those rows inside the group's transaction (FOR UPDATE: a row another proxy is changing is
// waited for, then read as it committed), and runs the write again. The changes are written with the
// group's rows, in the same transaction.
//
// Two proxies deciding the same new deposit (or a user's first callback) at once both find no row;
// both INSERT, and the primary key lets one commit and fails the other's group, whose writes run again
// and then find the row: the deposit is deducted once, by the constraint.
import type pg from 'pg';
import type { ResultValue, SandboxDeposit, SandboxState, SandboxUser } from '../../../shared/model';
import { depositRecordOf, type DepositRecord, type DepositRow, type SandboxBooks, type StoredAnswer } from '../../sandbox';
import { pgText } from './pg-text';

interface Key {
  book: string;
  id: string;
}

/** The write read books not loaded yet: load these, then run it again. Never the write's own failure. */
export class BooksNotLoaded extends Error {
  /** Marks an engine's signal that the whole write must stop (capture-writer.ts: sinksTheWrite). */
  readonly sinksWrite = true;
  constructor(
    readonly users: Key[],
    readonly deposits: Key[],
  ) {
    super('The sandbox books for this callback are not loaded yet.');
  }

  /** Every row that `needs` ask for, each once. */
  static all(needs: readonly BooksNotLoaded[]): BooksNotLoaded {
    const once = (keys: Key[]): Key[] => [...new Map(keys.map((k) => [keyOf(k.book, k.id), k])).values()];
    return new BooksNotLoaded(once(needs.flatMap((n) => n.users)), once(needs.flatMap((n) => n.deposits)));
  }
}

const keyOf = (book: string, id: string): string => `${book}\u0000${id}`;

interface UserRow {
  balance: number;
  /** Whether the row exists in the database (an UPDATE), or is new in this group (an INSERT). */
  stored: boolean;
}

export class PgBooks implements SandboxBooks {
  /** Loaded users and deposits; null: loaded, and not there. */
  private readonly users = new Map<string, (UserRow & { key: Key }) | null>();
  private readonly deposits = new Map<string, DepositRecord | null>();
  private readonly newDeposits = new Map<string, { key: Key; at: string; record: DepositRecord }>();
  private readonly changedUsers = new Set<string>();
  private readonly settled = new Map<string, { key: Key; outcome: ResultValue; at: string; answer: StoredAnswer }>();
  /** Undoes each change, latest first, for a write that fails half-way. */
  private journal: Array<() => void> = [];

  /** The desk's starting balance, read once a group and only when a user the books have not seen needs it. */
  private starting: number | null = null;

  /**
   * `startingBalance`: reads the desk's setting (a query of its own store). A group that only forwards
   * never asks, so the proxy's busiest path pays no read for a sandbox it does not use.
   */
  constructor(private readonly startingBalance: () => number) {}

  balanceOf(book: string, userId: string): number {
    const k = keyOf(book, userId);
    if (!this.users.has(k)) throw new BooksNotLoaded([{ book, id: userId }], []);
    return this.users.get(k)?.balance ?? (this.starting ??= this.startingBalance());
  }

  setBalance(book: string, userId: string, balance: number): void {
    const k = keyOf(book, userId);
    if (!this.users.has(k)) throw new BooksNotLoaded([{ book, id: userId }], []);
    const before = this.users.get(k) ?? null;
    const wasChanged = this.changedUsers.has(k);
    this.users.set(k, { key: { book, id: userId }, balance, stored: before?.stored ?? false });
    this.changedUsers.add(k);
    this.journal.push(() => {
      this.users.set(k, before);
      if (!wasChanged) this.changedUsers.delete(k);
    });
  }

  deposit(book: string, depositId: string): DepositRecord | null {
    const k = keyOf(book, depositId);
    if (!this.deposits.has(k)) throw new BooksNotLoaded([], [{ book, id: depositId }]);
    return this.deposits.get(k) ?? null;
  }

  addDeposit(book: string, d: { depositId: string; userId: string; amount: number; currency: string; at: string; answer: StoredAnswer }): void {
    const k = keyOf(book, d.depositId);
    const record: DepositRecord = {
      depositId: d.depositId,
      userId: d.userId,
      amount: d.amount,
      currency: d.currency,
      outcome: null,
      payAnswer: d.answer,
      resultsAnswer: null,
    };
    const before = this.deposits.get(k) ?? null;
    this.deposits.set(k, record);
    this.newDeposits.set(k, { key: { book, id: d.depositId }, at: d.at, record });
    this.journal.push(() => {
      this.deposits.set(k, before);
      this.newDeposits.delete(k);
    });
  }

  settle(book: string, depositId: string, outcome: ResultValue, at: string, answer: StoredAnswer): void {
    const k = keyOf(book, depositId);
    const record = this.deposits.get(k);
    if (!record) throw new Error(`Deposit ${depositId} is not in the books.`);
    const before = { outcome: record.outcome, resultsAnswer: record.resultsAnswer, settled: this.settled.get(k) };
    record.outcome = outcome;
    record.resultsAnswer = answer;
    this.settled.set(k, { key: { book, id: depositId }, outcome, at, answer });
    this.journal.push(() => {
      record.outcome = before.outcome;
      record.resultsAnswer = before.resultsAnswer;
      if (before.settled) this.settled.set(k, before.settled);
      else this.settled.delete(k);
    });
  }

  /** Runs one write's decisions; if it throws, its changes to the books are undone. */
  run<T>(fn: () => T): T {
    const mark = this.journal.length;
    try {
      return fn();
    } catch (err) {
      for (const undo of this.journal.splice(mark).reverse()) undo();
      throw err;
    }
  }

  /** Reads the rows asked for inside the group's transaction, each locked until it commits. */
  async load(client: pg.Client, need: BooksNotLoaded): Promise<void> {
    const users = need.users.filter((u) => !this.users.has(keyOf(u.book, u.id)));
    if (users.length > 0) {
      const found = await client.query<{ profile: string; user_id: string; balance: number }>(
        'SELECT profile, user_id, balance FROM sandbox_users WHERE (profile, user_id) IN (SELECT * FROM unnest($1::text[], $2::text[])) FOR UPDATE',
        [users.map((u) => pgText(u.book)), users.map((u) => pgText(u.id))],
      );
      const rows = new Map(found.rows.map((r) => [keyOf(r.profile, r.user_id), r]));
      for (const u of users) {
        const r = rows.get(keyOf(pgText(u.book), pgText(u.id)));
        this.users.set(keyOf(u.book, u.id), r ? { key: u, balance: r.balance, stored: true } : null);
      }
    }
    const deposits = need.deposits.filter((d) => !this.deposits.has(keyOf(d.book, d.id)));
    if (deposits.length > 0) {
      const found = await client.query<DepositRow & { profile: string }>(
        'SELECT * FROM sandbox_deposits WHERE (profile, deposit_id) IN (SELECT * FROM unnest($1::text[], $2::text[])) FOR UPDATE',
        [deposits.map((d) => pgText(d.book)), deposits.map((d) => pgText(d.id))],
      );
      const rows = new Map(found.rows.map((r) => [keyOf(r.profile, r.deposit_id), r]));
      for (const d of deposits) {
        const r = rows.get(keyOf(pgText(d.book), pgText(d.id)));
        // Read back under the id the callback used (a NUL in it is stored as U+FFFD).
        this.deposits.set(keyOf(d.book, d.id), r ? { ...depositRecordOf(r), depositId: d.id } : null);
      }
    }
  }

  /** Whether any write changed the books. */
  changed(): boolean {
    return this.journal.length > 0;
  }

  /** Writes the changes: new rows as plain INSERTs, so that a row another proxy made meanwhile fails the group. */
  async write(client: pg.Client): Promise<void> {
    const changedUsers = [...this.changedUsers].map((k) => this.users.get(k)!);
    const inserted = changedUsers.filter((u) => !u.stored);
    const updated = changedUsers.filter((u) => u.stored);
    if (inserted.length > 0)
      await client.query('INSERT INTO sandbox_users (profile, user_id, balance) SELECT * FROM unnest($1::text[], $2::text[], $3::float8[])', [
        inserted.map((u) => pgText(u.key.book)),
        inserted.map((u) => pgText(u.key.id)),
        inserted.map((u) => u.balance),
      ]);
    if (updated.length > 0)
      await client.query(
        'UPDATE sandbox_users AS s SET balance = u.balance FROM unnest($1::text[], $2::text[], $3::float8[]) AS u(profile, user_id, balance) WHERE s.profile = u.profile AND s.user_id = u.user_id',
        [updated.map((u) => pgText(u.key.book)), updated.map((u) => pgText(u.key.id)), updated.map((u) => u.balance)],
      );
    const fresh = [...this.newDeposits.values()];
    if (fresh.length > 0)
      await client.query(
        `INSERT INTO sandbox_deposits (profile, deposit_id, user_id, amount, currency, paid_at, pay_response, outcome, settled_at, results_response)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])`,
        [
          fresh.map((d) => pgText(d.key.book)),
          fresh.map((d) => pgText(d.key.id)),
          fresh.map((d) => pgText(d.record.userId)),
          fresh.map((d) => d.record.amount),
          fresh.map((d) => pgText(d.record.currency)),
          fresh.map((d) => d.at),
          fresh.map((d) => JSON.stringify(d.record.payAnswer)),
          // A deposit paid and settled in one group is inserted settled.
          fresh.map((d) => this.settled.get(keyOf(d.key.book, d.key.id))?.outcome ?? null),
          fresh.map((d) => this.settled.get(keyOf(d.key.book, d.key.id))?.at ?? null),
          fresh.map((d) => {
            const s = this.settled.get(keyOf(d.key.book, d.key.id));
            return s ? JSON.stringify(s.answer) : null;
          }),
        ],
      );
    const settles = [...this.settled.entries()].filter(([k]) => !this.newDeposits.has(k)).map(([, s]) => s);
    if (settles.length > 0)
      await client.query(
        `UPDATE sandbox_deposits AS d SET outcome = s.outcome, settled_at = s.at, results_response = s.answer
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS s(profile, deposit_id, outcome, at, answer)
         WHERE d.profile = s.profile AND d.deposit_id = s.deposit_id`,
        [
          settles.map((s) => pgText(s.key.book)),
          settles.map((s) => pgText(s.key.id)),
          settles.map((s) => s.outcome),
          settles.map((s) => s.at),
          settles.map((s) => JSON.stringify(s.answer)),
        ],
      );
  }
}

/** One profile's books as the sandbox panel shows them (the same order as SQLite's). */
export async function readBooks(client: pg.Client, book: string, startingBalance: number): Promise<SandboxState> {
  const users = await client.query<SandboxUser>('SELECT user_id AS "userId", balance FROM sandbox_users WHERE profile = $1 ORDER BY user_id', [pgText(book)]);
  const deposits = await client.query<SandboxDeposit>(
    `SELECT deposit_id AS "depositId", user_id AS "userId", amount, currency, outcome, paid_at AS "paidAt", settled_at AS "settledAt"
     FROM sandbox_deposits WHERE profile = $1 ORDER BY paid_at DESC, deposit_id`,
    [pgText(book)],
  );
  return { startingBalance, users: users.rows, deposits: deposits.rows };
}

/** A balance set by a person: the row made or changed, at once. */
export async function setBookBalance(client: pg.Client, book: string, userId: string, balance: number): Promise<void> {
  await client.query(
    'INSERT INTO sandbox_users (profile, user_id, balance) VALUES ($1, $2, $3) ON CONFLICT (profile, user_id) DO UPDATE SET balance = excluded.balance',
    [pgText(book), pgText(userId), balance],
  );
}

/** Forgets every balance and deposit of the book, in one transaction. */
export async function resetBooks(client: pg.Client, book: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('DELETE FROM sandbox_deposits WHERE profile = $1', [pgText(book)]);
    await client.query('DELETE FROM sandbox_users WHERE profile = $1', [pgText(book)]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
