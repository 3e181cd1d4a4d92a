// The run's spending plan, made before it sends anything: what the generated checks need at a stake
// (their steps played on a correct operator's books, each check followed by its clean-up, with room
// for one control pay), and the stake to send with. The default stake is kept when the user can afford
// the run at it; a user with less gets the largest smaller stake that fits, down to the smallest amount
// the profile's units allow (one minor unit: 1, or 0.01 in decimal amounts).
import type { AmountsMode } from '../../../shared/model';
import { Bodies } from '../bodies';
import { RunIds } from '../run-ids';
import { runNeed } from './spending';
import type { MatrixCheck } from './types';

export interface SpendingPlan {
  stake: number;
  /** What the run needs at most on a correct operator, in the profile's amounts. */
  needs: number;
}

interface PlanInput {
  checks: readonly MatrixCheck[];
  userId: string;
  amounts: AmountsMode;
  currency: string;
  concurrency: number;
}

/** What the run needs at `stake`: its lowest point on a correct operator's books, plus one control pay. */
export function needsAt(input: PlanInput, stake: number): number {
  const scope = { userId: input.userId, ids: new RunIds('wd-plan'), bodies: new Bodies(input.amounts, stake, input.currency), concurrency: input.concurrency };
  const steps = input.checks.map((c) => c.build(scope).steps);
  return round(runNeed(steps, input.userId) + stake);
}

const round = (n: number): number => Math.round(n * 100) / 100;

/** The smallest step of an amount in the profile's units. */
const unitOf = (amounts: AmountsMode): number => (amounts === 'integer' ? 1 : 0.01);

/**
 * The stake to send with: `preferred` when the user can afford the run at it (or the balance is not
 * known), else the largest smaller multiple of the unit that fits, else the unit itself.
 */
export function planSpending(input: PlanInput, preferred: number, balance: number | null, stakeGiven: boolean): SpendingPlan {
  const at = { stake: preferred, needs: needsAt(input, preferred) };
  if (stakeGiven || balance === null || at.needs <= balance) return at;
  const unit = unitOf(input.amounts);
  let low = 1;
  let high = Math.max(1, Math.floor(round(preferred / unit)) - 1);
  let best: SpendingPlan = { stake: unit, needs: needsAt(input, unit) };
  if (best.needs > balance) return best;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const stake = round(mid * unit);
    const needs = needsAt(input, stake);
    if (needs <= balance) {
      best = { stake, needs };
      low = mid + 1;
    } else high = mid - 1;
  }
  return best;
}
