// What a run costs the test user, worked out before it sends anything: the steps of each check played
// on the books of an operator that follows section 3 (a valid pay of a new deposit deducts, WIN and
// DRAW credit their amount, REFUND the stored one, LOSE nothing, a deposit settles once), each check
// followed by the refund of every deposit it left open. The lowest point of those books is what the
// run needs; the lowest point of one check's own steps is what that check needs before it starts.
import { HUGE_AMOUNT } from '../bodies';
import type { CaseStep } from '../steps';

export interface PaidDeposit {
  userId: string;
  depositId: string;
  amount: number;
}

interface StepMessage {
  userId: string;
  depositId: string;
  result: string | null;
  amount: number | null;
}

/** The ids and amount a step's body carries, or null when it is not a message of one deposit. */
export function messageOf(step: Pick<CaseStep, 'body'>): StepMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(step.body).toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.userId !== 'string' || typeof v.depositId !== 'string') return null;
  return {
    userId: v.userId,
    depositId: v.depositId,
    result: typeof v.result === 'string' ? v.result : null,
    amount: typeof v.amount === 'number' && Number.isFinite(v.amount) ? v.amount : null,
  };
}

/** The books of a correct operator for the run's user: its balance relative to the start, and open deposits. */
export class SpendingBooks {
  balance = 0;
  lowest = 0;
  private readonly open = new Map<string, number>();
  private readonly settled = new Set<string>();

  constructor(private readonly userId: string) {}

  private move(by: number): void {
    // Minor units as numbers: sums of a few hundred stakes stay exact enough to compare with a balance.
    this.balance = Math.round((this.balance + by) * 1e6) / 1e6;
    this.lowest = Math.min(this.lowest, this.balance);
  }

  /** Plays one step as a correct operator would take it (copies of one message count once). */
  play(step: CaseStep): void {
    if ((step.signature ?? 'valid') !== 'valid') return;
    const m = messageOf(step);
    if (m === null || m.userId !== this.userId) return;
    if (step.to === 'pay') {
      if (m.amount === null || m.amount <= 0 || m.amount >= HUGE_AMOUNT) return;
      if (this.open.has(m.depositId) || this.settled.has(m.depositId)) return;
      this.open.set(m.depositId, m.amount);
      this.move(-m.amount);
      return;
    }
    const stored = this.open.get(m.depositId);
    if (stored === undefined) return;
    this.open.delete(m.depositId);
    this.settled.add(m.depositId);
    if (m.result === 'REFUND') this.move(stored);
    else if ((m.result === 'WIN' || m.result === 'DRAW') && m.amount !== null) this.move(m.amount);
  }

  /** The clean-up after a check: every deposit it left open is refunded. */
  refundOpen(): void {
    for (const [depositId, amount] of this.open) {
      this.open.delete(depositId);
      this.settled.add(depositId);
      this.move(amount);
    }
  }
}

/** What one check's steps need on the user's balance before they start (its lowest point, as a positive amount). */
export function needOf(steps: readonly CaseStep[], userId: string): number {
  const books = new SpendingBooks(userId);
  for (const s of steps) books.play(s);
  return Math.max(0, -books.lowest);
}

/** What a whole run needs: the lowest point of the books over every check, each followed by its clean-up. */
export function runNeed(checks: ReadonlyArray<readonly CaseStep[]>, userId: string): number {
  const books = new SpendingBooks(userId);
  for (const steps of checks) {
    for (const s of steps) books.play(s);
    books.refundOpen();
  }
  return Math.max(0, -books.lowest);
}
