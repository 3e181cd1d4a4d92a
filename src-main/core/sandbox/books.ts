// The sandbox operator's books as its decisions see them: one balance per user and one record per
// accepted deposit (section 2.3 of the spec: the operator keeps, per depositId, the deducted amount).
// Each profile has books of its own (its `book`, the profile's name; '' without profiles): one
// operator's user and deposit ids may be another's. The store keeps them (store/sqlite/sandbox-books.ts,
// store/postgres/sandbox-books.ts); the operator only reads and writes them through this interface.
import type { ResultValue } from '../../shared/model';
import { addExact } from './exact-money';

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

/**
 * Books that run a decision all or nothing on their own (the desk's own database): two copies of one
 * pay arriving together still deduct once, even when another process writes to the same books.
 */
export interface OwnBooks extends SandboxBooks {
  /** Runs `decide` in one transaction of the books' own (inside a write's transaction, a part of it). */
  atomically<T>(decide: () => T): T;
}
