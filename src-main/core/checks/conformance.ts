// The conformance check: what `check` runs, in this order, with fresh ids on every run. Each check
// sends its steps and judges the last answer; the earlier steps set the scene (a pay before its
// result) and must get the answer they need, else the check is blocked. A check may also build on
// an earlier check (pay-duplicate repeats the pay of pay-accepted, results-duplicate the WIN of
// win-accepted): it names it in dependsOn and is blocked unless that one passed.
import type { Bodies } from './bodies';
import { HUGE_AMOUNT } from './bodies';
import { EXPECTATION_TEXT, type Expectation } from './expectation';
import type { RunIds } from './run-ids';
import type { CaseStep } from './steps';

/** What the checks of one run share: the user, the ids, the bodies, and the messages later checks repeat. */
export interface CheckScope {
  userId: string;
  ids: RunIds;
  bodies: Bodies;
  memo: { pay?: CaseStep; win?: CaseStep; depositId?: string };
}

export interface ConformanceCheck {
  id: string;
  title: string;
  /** What the last step's answer must be. */
  expectation: Expectation;
  /** Earlier checks of the run this one builds on: unless they passed, this one is blocked. */
  dependsOn?: readonly string[];
  steps(scope: CheckScope): CaseStep[];
}

/** The first pay of the run, made once and shared by the checks that build on it. */
function firstPay(scope: CheckScope): CaseStep {
  if (!scope.memo.pay) {
    const depositId = scope.ids.deposit('pay');
    scope.memo.depositId = depositId;
    scope.memo.pay = { label: 'pay', to: 'pay', body: scope.bodies.pay({ userId: scope.userId, depositId }) };
  }
  return scope.memo.pay;
}

function firstWin(scope: CheckScope): CaseStep {
  if (!scope.memo.win) {
    firstPay(scope);
    const body = scope.bodies.result('WIN', { userId: scope.userId, depositId: scope.memo.depositId as string, roomId: scope.ids.room('win') });
    scope.memo.win = { label: 'WIN', to: 'results', body };
  }
  return scope.memo.win;
}

function payThen(scope: CheckScope, label: string, result: (depositId: string) => CaseStep): CaseStep[] {
  const depositId = scope.ids.deposit(label);
  return [{ label: 'pay before it', to: 'pay', body: scope.bodies.pay({ userId: scope.userId, depositId }), needs: 'accepted' }, result(depositId)];
}

/**
 * A refusal proves something only where a valid pay is accepted (an operator refusing every pay refuses
 * these too), and an odd pay is judged only once a plain one goes through.
 */
const AFTER_A_VALID_PAY = ['pay-accepted'] as const;

export const CONFORMANCE_CHECKS: readonly ConformanceCheck[] = [
  { id: 'pay-accepted', title: 'A valid pay is accepted', expectation: 'accepted', steps: (s) => [firstPay(s)] },
  {
    id: 'pay-duplicate',
    title: 'The same pay again is accepted',
    expectation: '2XX',
    dependsOn: ['pay-accepted'],
    steps: (s) => [{ ...firstPay(s), label: 'the same pay again' }],
  },
  { id: 'win-accepted', title: 'WIN for that deposit is accepted', expectation: 'accepted', dependsOn: ['pay-accepted'], steps: (s) => [firstWin(s)] },
  {
    id: 'results-duplicate',
    title: 'The same results again are accepted',
    expectation: '2XX',
    dependsOn: ['win-accepted'],
    steps: (s) => [{ ...firstWin(s), label: 'the same WIN again' }],
  },
  {
    id: 'refund-unknown-deposit',
    title: 'REFUND of a depositId never paid answers 200',
    expectation: '200',
    steps: (s) => [
      {
        label: 'REFUND of an unknown deposit',
        to: 'results',
        body: s.bodies.result('REFUND', { userId: s.userId, depositId: s.ids.deposit('unknown-refund') }),
      },
    ],
  },
  {
    id: 'bad-signature-rejected',
    title: 'A pay with a wrong signature is rejected',
    expectation: '4XX',
    dependsOn: AFTER_A_VALID_PAY,
    steps: (s) => [
      { label: 'badly signed pay', to: 'pay', body: s.bodies.pay({ userId: s.userId, depositId: s.ids.deposit('bad-sig') }), signature: 'invalid' },
    ],
  },
  {
    id: 'missing-signature-rejected',
    title: 'A pay without a signature header is rejected',
    expectation: '4XX',
    dependsOn: AFTER_A_VALID_PAY,
    steps: (s) => [{ label: 'unsigned pay', to: 'pay', body: s.bodies.pay({ userId: s.userId, depositId: s.ids.deposit('no-sig') }), signature: 'none' }],
  },
  {
    id: 'wrong-secret-rejected',
    title: 'A pay signed with another secret is rejected',
    expectation: '4XX',
    dependsOn: AFTER_A_VALID_PAY,
    steps: (s) => [
      {
        label: 'pay signed with another secret',
        to: 'pay',
        body: s.bodies.pay({ userId: s.userId, depositId: s.ids.deposit('other-secret') }),
        signature: 'other-secret',
      },
    ],
  },
  {
    id: 'non-canonical-json-accepted',
    title: 'A correctly signed pay whose bytes are not compact JSON is accepted',
    expectation: 'accepted',
    dependsOn: AFTER_A_VALID_PAY,
    steps: (s) => [
      {
        label: 'pretty-printed, re-ordered, escaped pay',
        to: 'pay',
        body: s.bodies.allNonCanonical({ userId: s.userId, depositId: s.ids.deposit('non-canonical') }),
      },
    ],
  },
  {
    id: 'lose-minimal-accepted',
    title: 'LOSE without currency and amount is accepted',
    expectation: 'accepted',
    steps: (s) =>
      payThen(s, 'lose', (depositId) => ({
        label: 'LOSE',
        to: 'results',
        body: s.bodies.result('LOSE', { userId: s.userId, depositId, roomId: s.ids.room('lose') }),
      })),
  },
  {
    id: 'refund-null-room-game-accepted',
    title: 'REFUND with null roomId and gameId is accepted',
    expectation: 'accepted',
    steps: (s) =>
      payThen(s, 'refund', (depositId) => ({
        label: 'REFUND with null roomId and gameId',
        to: 'results',
        body: s.bodies.result('REFUND', { userId: s.userId, depositId, roomId: null, gameId: null }),
      })),
  },
  {
    id: 'tournament-pay-accepted',
    title: 'A pay with a tournamentId is accepted',
    expectation: 'accepted',
    dependsOn: AFTER_A_VALID_PAY,
    steps: (s) => [
      {
        label: 'tournament pay',
        to: 'pay',
        body: s.bodies.pay({ userId: s.userId, depositId: s.ids.deposit('tournament'), tournamentId: s.ids.tournament() }),
      },
    ],
  },
  {
    id: 'insufficient-balance-error-body',
    title: 'A pay above the balance is refused with the error body',
    expectation: 'error-body',
    dependsOn: AFTER_A_VALID_PAY,
    steps: (s) => [
      { label: 'pay far above the balance', to: 'pay', body: s.bodies.pay({ userId: s.userId, depositId: s.ids.deposit('too-much'), amount: HUGE_AMOUNT }) },
    ],
  },
];

export const CONFORMANCE_CHECK_IDS: readonly string[] = CONFORMANCE_CHECKS.map((c) => c.id);

export function expectedText(check: ConformanceCheck): string {
  return EXPECTATION_TEXT[check.expectation];
}

/** What the interface cannot show: listed in every report with pass null, never counted as passed. */
export interface NotObservable {
  id: string;
  title: string;
  expected: string;
  /** The checks whose exchanges are the evidence to compare with the operator's ledger. */
  evidenceFrom: string[];
}

export const NOT_OBSERVABLE: readonly NotObservable[] = [
  {
    id: 'pay-duplicate-charged-once',
    title: 'A duplicate pay was not charged twice',
    expected: "the user's balance was debited once for the depositId (check the operator's ledger)",
    evidenceFrom: ['pay-accepted', 'pay-duplicate'],
  },
  {
    id: 'win-credited-once',
    title: 'A WIN was credited once',
    expected: "the user's balance was credited once for the duplicate results (check the operator's ledger)",
    evidenceFrom: ['win-accepted', 'results-duplicate'],
  },
  {
    id: 'refund-unknown-ignored',
    title: 'A REFUND of an unknown depositId changed nothing',
    expected: 'no balance changed and nothing was stored for the unknown depositId',
    evidenceFrom: ['refund-unknown-deposit'],
  },
  {
    id: 'refund-returned-stake',
    title: 'A REFUND returned the paid amount',
    expected: 'the amount stored with the pay was credited back once',
    evidenceFrom: ['refund-null-room-game-accepted'],
  },
  {
    id: 'rejected-pays-not-charged',
    title: 'Pays refused for their signature were not charged',
    expected: 'no balance changed for the badly signed, unsigned and wrongly signed pays',
    evidenceFrom: ['bad-signature-rejected', 'missing-signature-rejected', 'wrong-secret-rejected'],
  },
];
