// The conformance check: its options, rules, evidence, outcomes and reports.
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.
import type { AmountsMode } from './exchanges';
import type { RefusalExplanation } from './profiles';

export interface CheckOptions {
  to?: string;
  userId: string;
  profile?: string;
  confirmedProduction?: boolean;
  /** A secret for this run only (the CLI's --secret-env); never stored. */
  customSecret?: string;
  /** The callback prefix for this run; default: the profile's. */
  callbackPrefix?: string;
  /** How the run's amounts are written; default: the profile's. */
  amounts?: AmountsMode;
  /** The stake of the run's pays; default 100 on integer profiles (minor units), 1.5 on decimal ones. */
  stake?: number;
  /** How many identical requests the concurrent-duplicate checks send at once; default 5. */
  concurrency?: number;
  /**
   * A balance endpoint of the target for this run only ({userId} in it is the user): with `to` another
   * server than the profile's operator, the profile's probe is never read, and money comes from here
   * or from the answers.
   */
  balanceUrl?: string;
  /** Where the balance is in that endpoint's answer (JSONPath); default: the profile's probe path, else $.balance. */
  balancePath?: string;
}

/** A rule of the spec a check tests: its section of docs/operator-interface.md and its words. */
export interface CheckRule {
  section: string;
  text: string;
  /** Whose rule it is: the spec's (its section quoted) or the desk's advice where the spec says nothing. Absent: the spec's. */
  source?: 'spec' | 'advice';
}

/** What a check judged by: status first, money second, words last. */
export interface CheckEvidence {
  /** The statuses of the judged answers (null: no answer), in the order sent. */
  statuses: Array<number | null>;
  /** The user's balance before and after the judged steps, exact decimal strings in the profile's amounts. */
  balanceBefore?: string | null;
  balanceAfter?: string | null;
  /** After minus before, and what the rule says it must be. */
  delta?: string | null;
  expectedDelta?: string;
  /** Where the readings came from: the balance probe or the operator's answer body. */
  balanceSource?: 'probe' | 'answer';
  /** Words of an answer body the verdict used, quoted. */
  words?: string[];
  /** What the client SDK receives of a refused pay. */
  clientSees?: string;
}

/**
 * pass and fail judge the answer; blocked: a step the check depends on did not get the answer it needs
 * (a pay refused before its WIN, a balance run out), so the check says nothing about the operator either
 * way; not-observable: the interface cannot show it; inconclusive: a variant was refused and so was its
 * control (or its money could not be isolated), both answers quoted, never a fail; warning: the desk's
 * advice, not the spec's rule, was not met (shown and counted, never failing the run).
 */
export type CheckOutcome = 'pass' | 'fail' | 'blocked' | 'not-observable' | 'inconclusive' | 'warning';

/** A check's outcome, also for reports stored before outcomes existed (pass true, false, null). */
export function outcomeOfCheck(c: { pass: boolean | null; outcome?: CheckOutcome }): CheckOutcome {
  return c.outcome ?? (c.pass === true ? 'pass' : c.pass === false ? 'fail' : 'not-observable');
}

export interface CheckResult {
  id: string;
  title: string;
  /** null: not observable through the interface (never counted as passed). */
  pass: boolean | null;
  expected: string;
  actual: { status: number | null; body: string | null; error?: string };
  exchangeIds: number[];
  /** Why it failed, where the status and body alone do not say (e.g. "errors[0].isClientSafe is a string"). */
  reason?: string;
  /** pass: true is 'pass', false is 'fail' or 'blocked', null is 'not-observable'. Absent in reports stored before outcomes existed. */
  outcome?: CheckOutcome;
  /** When blocked: the step it depends on and what that step answered. */
  blockedBy?: { step: string; answer: string };
  /** The spec rule it tests. */
  rule?: CheckRule;
  /** What it sent, one line per step. */
  sent?: string[];
  /** What it observed, in one line. */
  observed?: string;
  evidence?: CheckEvidence;
  /** Not observable: what would make it observable. */
  howToObserve?: string;
}

export interface CheckReport {
  id: number;
  /** The run's id (16 hex digits): its exchanges are tagged check:<runId> and its ids start with wd-<runId>. */
  runId?: string;
  at: string;
  target: string;
  userId: string;
  passed: number;
  failed: number;
  /** Checks whose dependencies did not get the answer they need; absent in reports stored before it existed. */
  blocked?: number;
  notObservable: number;
  /** A problem with the whole run, said first (the target does not serve <prefix>/pay, say). */
  headline?: string;
  /** The callback prefix the run posted to. */
  callbackPrefix?: string;
  /** Whether the run had money evidence (a balance probe or balances in the answers). */
  moneyObserved?: boolean;
  /** How many identical requests the concurrent-duplicate checks sent at once. */
  concurrency?: number;
  /** Why the operator refused a correctly signed callback of the run, when it did (the explainer's probes). */
  refusal?: RefusalExplanation;
  /** Refused variants whose control was refused too: neither passed nor failed. */
  inconclusive?: number;
  /** The desk's advice not met: shown and counted, never failing the run. */
  warnings?: number;
  /** Where the run read money: "balance probe URL", "the balance in the answers at PATH", or that it read none. */
  moneySource?: string;
  /** What the run may spend and what the user had: "this run needs at most N; the user has M". */
  budget?: string;
  checks: CheckResult[];
}

export interface CheckReportSummary {
  id: number;
  at: string;
  target: string;
  userId: string;
  passed: number;
  failed: number;
}

/** The files a stored report is exported as: the report whole, a ticket's Markdown, a CI's JUnit XML, a self-contained page. */
export type CheckReportFormat = 'json' | 'markdown' | 'junit' | 'html';
