// The built-in sandbox operator's books: users, balances, deposits.
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.
import type { ResultValue } from './exchanges';

export interface SandboxUser {
  userId: string;
  balance: number;
}

export interface SandboxDeposit {
  depositId: string;
  userId: string;
  amount: number;
  currency: string;
  /** null until a results callback settled it. */
  outcome: ResultValue | null;
  paidAt: string;
  settledAt: string | null;
}

export interface SandboxState {
  startingBalance: number;
  users: SandboxUser[];
  deposits: SandboxDeposit[];
}
