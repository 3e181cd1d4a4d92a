// A money rule judged by the delta it caused, exactly, in the profile's amounts: without readings
// before and after it is not observable (with what would make it so), never a pass.
import type { CheckEvidence, CheckOutcome } from '../../../shared/model';
import type { BalanceEvidence } from '../../balance/observer';
import { decimalDelta, decimalEquals, decimalOf } from '../../decimal';

export interface MoneyVerdict {
  outcome: Extract<CheckOutcome, 'pass' | 'fail' | 'not-observable'>;
  evidence: Pick<CheckEvidence, 'balanceBefore' | 'balanceAfter' | 'delta' | 'expectedDelta' | 'balanceSource'>;
  observed: string;
  reason?: string;
  howToObserve?: string;
}

const signed = (d: string): string => (d.startsWith('-') || d === '0' ? d : `+${d}`);

export function judgeMoney(
  expected: number,
  before: BalanceEvidence | null,
  after: BalanceEvidence | null,
  howToObserve: string,
  /** Why the rule's delta is not the one expected here (every request refused), said beside it. */
  note?: string,
): MoneyVerdict {
  const expectedDelta = decimalOf(expected);
  if (before?.kind !== 'reading' || after?.kind !== 'reading') {
    const missing =
      before?.kind === 'unavailable'
        ? `the balance could not be read before the step: ${before.reason}`
        : after?.kind === 'unavailable'
          ? `the balance could not be read after the step: ${after.reason}`
          : 'the run has no balance evidence';
    return {
      outcome: 'not-observable',
      evidence: {
        balanceBefore: before?.kind === 'reading' ? before.value : null,
        balanceAfter: after?.kind === 'reading' ? after.value : null,
        expectedDelta,
      },
      observed: missing,
      reason: missing,
      howToObserve,
    };
  }
  const delta = decimalDelta(before.value, after.value);
  const source = after.source === 'probe' || before.source === 'probe' ? 'probe' : 'answer';
  const evidence = { balanceBefore: before.value, balanceAfter: after.value, delta, expectedDelta, balanceSource: source } as const;
  const observed = `balance ${before.value} → ${after.value} (${delta === null ? 'not a decimal' : signed(delta)}; the rule says ${signed(expectedDelta)}${note ? `: ${note}` : ''})`;
  if (delta !== null && decimalEquals(delta, expectedDelta)) return { outcome: 'pass', evidence, observed };
  return {
    outcome: 'fail',
    evidence,
    observed,
    reason: `the balance moved by ${delta === null ? 'an unreadable amount' : signed(delta)} where the rule says ${signed(expectedDelta)}`,
  };
}
