// The sandbox operator's books in the desk's own database (sandbox/books.ts says what they hold), with
// what a person sets by hand: the starting balance, one user's balance, a reset.
import type { AmountsMode, ResultValue, SandboxDeposit, SandboxState, SandboxUser } from '../../../shared/model';
import { DeskFailure } from '../../result';
import { depositRecordOf, money, type DepositRecord, type DepositRow, type OwnBooks, type StoredAnswer } from '../../sandbox/books';
import type { Db } from './open';
import type { SettingsStore } from './settings';

export const STARTING_BALANCE_KEY = 'sandbox-starting-balance';
/** An integer, so it fits both amounts modes; in minor units it covers the checks' stakes of 100 ten times. */
export const DEFAULT_STARTING_BALANCE = 1000;
const ACTIVE_PROFILE_KEY = 'active-profile';

export class SandboxLedger implements OwnBooks {
  private readonly balanceStmt;
  private readonly upsertBalanceStmt;
  private readonly depositStmt;
  private readonly insertDepositStmt;
  private readonly settleStmt;
  private readonly amountsStmt;
  /** Made once: db.transaction() is costly to build, and a decision runs for every sandboxed callback. */
  private readonly inTransaction;

  /** `profilesDb`: where the profiles are (a team's are in memory, store/sqlite/profile-copy.ts); default: `db`. */
  constructor(
    readonly db: Db,
    private readonly settings: SettingsStore,
    profilesDb: Db = db,
  ) {
    this.balanceStmt = db.prepare('SELECT balance FROM sandbox_users WHERE profile = ? AND user_id = ?').pluck();
    this.upsertBalanceStmt = db.prepare(
      'INSERT INTO sandbox_users (profile, user_id, balance) VALUES (?, ?, ?) ON CONFLICT (profile, user_id) DO UPDATE SET balance = excluded.balance',
    );
    this.depositStmt = db.prepare('SELECT * FROM sandbox_deposits WHERE profile = ? AND deposit_id = ?');
    this.insertDepositStmt = db.prepare(
      'INSERT INTO sandbox_deposits (profile, deposit_id, user_id, amount, currency, paid_at, pay_response) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.settleStmt = db.prepare('UPDATE sandbox_deposits SET outcome = ?, settled_at = ?, results_response = ? WHERE profile = ? AND deposit_id = ?');
    this.amountsStmt = profilesDb.prepare('SELECT amounts FROM profiles WHERE name = ?').pluck();
    this.inTransaction = db.transaction((decide: () => unknown) => decide());
  }

  /** BEGIN IMMEDIATE; inside the proxy's group commit, a savepoint of it, which rolls a half-done decision back. */
  atomically<T>(decide: () => T): T {
    return this.inTransaction.immediate(decide) as T;
  }

  /** How the active profile writes amounts (null without one): the balances a person sets follow it. */
  private amounts(): AmountsMode | null {
    const active = this.settings.get(ACTIVE_PROFILE_KEY);
    return active === null ? null : ((this.amountsStmt.get(active) as AmountsMode | undefined) ?? null);
  }

  startingBalance(): number {
    const stored = this.settings.get(STARTING_BALANCE_KEY);
    const parsed = stored === null ? NaN : Number(stored);
    return Number.isFinite(parsed) ? parsed : DEFAULT_STARTING_BALANCE;
  }

  /** On an integer profile a balance is a whole number of minor units: a fraction there is a typing mistake. */
  checkUnits(what: string, amount: number): void {
    if (this.amounts() === 'integer' && Number.isFinite(amount) && !Number.isSafeInteger(amount)) {
      throw new DeskFailure('bad-input', `${what} must be an integer: the active profile writes amounts in minor units (100 for 1.00); got ${amount}.`);
    }
  }

  setStartingBalance(amount: number): void {
    this.checkUnits('The starting balance', amount);
    this.settings.set(STARTING_BALANCE_KEY, String(amount));
  }

  /** A user the sandbox has not seen yet starts with the configured balance. */
  balanceOf(book: string, userId: string): number {
    const found = this.balanceStmt.get(book, userId) as number | undefined;
    return found ?? this.startingBalance();
  }

  setBalance(book: string, userId: string, balance: number): void {
    this.upsertBalanceStmt.run(book, userId, money(balance));
  }

  /** A balance set by a person (not by a callback): in the active profile's units. */
  setBalanceByHand(book: string, userId: string, balance: number): void {
    this.checkUnits('The balance', balance);
    this.setBalance(book, userId, balance);
  }

  deposit(book: string, depositId: string): DepositRecord | null {
    const r = this.depositStmt.get(book, depositId) as DepositRow | undefined;
    return r ? depositRecordOf(r) : null;
  }

  addDeposit(book: string, d: { depositId: string; userId: string; amount: number; currency: string; at: string; answer: StoredAnswer }): void {
    this.insertDepositStmt.run(book, d.depositId, d.userId, d.amount, d.currency, d.at, JSON.stringify(d.answer));
  }

  settle(book: string, depositId: string, outcome: ResultValue, at: string, answer: StoredAnswer): void {
    this.settleStmt.run(outcome, at, JSON.stringify(answer), book, depositId);
  }

  state(book: string): SandboxState {
    const users = this.db.prepare('SELECT user_id AS userId, balance FROM sandbox_users WHERE profile = ? ORDER BY user_id').all(book) as SandboxUser[];
    const deposits = (this.db.prepare('SELECT * FROM sandbox_deposits WHERE profile = ? ORDER BY paid_at DESC, deposit_id').all(book) as DepositRow[]).map(
      (r): SandboxDeposit => ({
        depositId: r.deposit_id,
        userId: r.user_id,
        amount: r.amount,
        currency: r.currency,
        outcome: r.outcome,
        paidAt: r.paid_at,
        settledAt: r.settled_at,
      }),
    );
    return { startingBalance: this.startingBalance(), users, deposits };
  }

  /** Forgets every balance and deposit of the book; the starting balance stays as configured. */
  reset(book: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM sandbox_deposits WHERE profile = ?').run(book);
      this.db.prepare('DELETE FROM sandbox_users WHERE profile = ?').run(book);
    })();
  }
}
