// One generated check: a rule of the spec crossed with what varies (endpoint, signature fault,
// ordering, duplicates, body shape). Its steps are built per run with fresh ids; the steps with
// `needs` set the scene, the others are judged. Where the rule is about money, `build` also says
// the exact change the judged steps must make to the user's balance.
import type { CheckRule, ResultValue } from '../../../shared/model';
import type { Bodies } from '../bodies';
import type { Expectation } from '../expectation';
import type { RunIds } from '../run-ids';
import type { CaseStep } from '../steps';

/** The callback a cell posts: a pay, or a result of one value. */
export type Endpoint = 'pay' | ResultValue;

export const ENDPOINTS: readonly Endpoint[] = ['pay', 'WIN', 'DRAW', 'LOSE', 'REFUND'];

export interface MatrixScope {
  userId: string;
  ids: RunIds;
  bodies: Bodies;
  /** How many identical requests a concurrent duplicate sends at once. */
  concurrency: number;
}

export interface BuiltCheck {
  steps: CaseStep[];
  /** The signed change of the user's balance the judged steps must cause, in the profile's amounts. */
  delta?: number;
}

export interface MoneyRule {
  rule: CheckRule;
  title: string;
  /** The finding when the balance moved otherwise, for the headline ("a forged WIN was credited"). */
  finding: string;
}

export interface MatrixCheck {
  /** Stable across runs and versions: scripts select checks by it. */
  id: string;
  title: string;
  /** What it sends and why, in a sentence. */
  tests: string;
  rule: CheckRule;
  /** What the judged answers must be; null: neither the spec nor the desk can tell (a person reads it). */
  expectation: Expectation | null;
  /** The finding when the answer is wrong, for the headline ("accepts unsigned results: a forged WIN would be credited"). */
  finding: string;
  /** Lower is worse: the headline names the worst failed check. */
  severity: number;
  /** Checks of the run whose answer must have passed for this one to mean anything (else it is blocked). */
  dependsOn?: readonly string[];
  money?: MoneyRule;
  /**
   * A variant of a plain message (spaced, escaped, re-ordered, with a tournamentId): the endpoint whose
   * plain form is sent as its control when the variant is refused, so a cause is named only when confirmed.
   */
  control?: Endpoint;
  /** Sent after every other check: an operator that gets it wrong may leave the user nothing to spend. */
  last?: boolean;
  build(scope: MatrixScope): BuiltCheck;
}

/** The id of the money result of a check: reported next to the answer's result. */
export const moneyIdOf = (id: string): string => `${id}.money`;
