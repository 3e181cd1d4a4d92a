// The evidence of money: what a user's balance reads before and after a check's step.
export type BalanceEvidence = { kind: 'reading'; value: string; source: 'probe' | 'answer' } | { kind: 'unavailable'; reason: string };

/** Reads balances for the conformance check; `value` is an exact decimal string in the profile's amounts. */
export interface BalanceObserver {
  /** False when the profile names no probe and no answer balance path: money rules are not observable. */
  readonly available: boolean;
  /** What would make money observable, in words, for the report (e.g. "set a balance probe: profile set P --balance-url ..."). */
  readonly howToObserve: string;
  /** The user's balance now, from the probe; 'unavailable' with a reason when there is no probe or it failed. */
  read(userId: string): Promise<BalanceEvidence>;
  /** The balance carried by an operator's answer body (--answer-balance-path), or null when none is configured or found. */
  fromAnswer(body: Uint8Array): BalanceEvidence | null;
}

/** An observer that observes nothing: the check's default where the profile names no evidence. */
export const NO_BALANCE_EVIDENCE: BalanceObserver = {
  available: false,
  howToObserve:
    'set a balance probe (profile set NAME --balance-url URL --balance-path PATH) or read the balance in the answers (profile set NAME --answer-balance-path PATH)',
  read: async () => ({ kind: 'unavailable', reason: 'no balance probe is configured' }),
  fromAnswer: () => null,
};
