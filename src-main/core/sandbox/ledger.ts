// The sandbox operator's books, in the desk's own database: one balance per user and one record per
// accepted deposit (section 2.3 of the spec: the operator keeps, per depositId, the deducted amount).
// Each profile has books of its own (its `book`, the profile's name; '' without profiles): one
// operator's user and deposit ids may be another's.
import type { AmountsMode, ResultValue, SandboxDeposit, SandboxState, SandboxUser } from '../../shared/model';
import { DeskFailure } from '../result';
import type { Db } from '../store/sqlite/open';
import type { SettingsStore } from '../store/sqlite/settings';
import { addExact } from './exact-money';

export const STARTING_BALANCE_KEY = 'sandbox-starting-balance';
/** An integer, so it fits both amounts modes; in minor units it covers the checks' stakes of 100 ten times. */
export const DEFAULT_STARTING_BALANCE = 1000;
const ACTIVE_PROFILE_KEY = 'active-profile';

/** An answer as it went out, kept so that a repeated callback gets the very same bytes. */
export interface StoredAnswer {
  status: number;
  body: string;
}

export interface DepositRecord {
  depositId: string;
  userId: string;
  amount: number;
  currency: string;
  outcome: ResultValue | null;
  payAnswer: StoredAnswer;
  resultsAnswer: StoredAnswer | null;
}

/** A row of sandbox_deposits, as both engines read it. */
export interface DepositRow {
  deposit_id: string;
  user_id: string;
  amount: number;
  currency: string;
  outcome: ResultValue | null;
  paid_at: string;
  settled_at: string | null;
  pay_response: string;
  results_response: string | null;
}

/** What deciding a callback reads and writes of the books; `book` is the profile's name ('' without profiles). */
export interface SandboxBooks {
  /** A user the sandbox has not seen yet has the configured starting balance. */
  balanceOf(book: string, userId: string): number;
  setBalance(book: string, userId: string, balance: number): void;
  deposit(book: string, depositId: string): DepositRecord | null;
  addDeposit(book: string, d: { depositId: string; userId: string; amount: number; currency: string; at: string; answer: StoredAnswer }): void;
  settle(book: string, depositId: string, outcome: ResultValue, at: string, answer: StoredAnswer): void;
}

export function depositRecordOf(r: DepositRow): DepositRecord {
  return {
    depositId: r.deposit_id,
    userId: r.user_id,
    amount: r.amount,
    currency: r.currency,
    outcome: r.outcome,
    payAnswer: JSON.parse(r.pay_response) as StoredAnswer,
    resultsAnswer: r.results_response === null ? null : (JSON.parse(r.results_response) as StoredAnswer),
  };
}

/** A balance as stored: the sums are exact already (exact-money); this keeps -0 out of the books. */
export function money(value: number): number {
  return addExact(value, 0);
}

export class SandboxLedger implements SandboxBooks {
  private readonly balanceStmt;
  private readonly upsertBalanceStmt;
  private readonly depositStmt;
  private readonly insertDepositStmt;
  private readonly settleStmt;
  private readonly amountsStmt;

  /** `profilesDb`: where the profiles are (a team's are in memory, store/profile-copy.ts); default: `db`. */
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
