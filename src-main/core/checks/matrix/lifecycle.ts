// Section 3's table, one valid message per endpoint: each is accepted, and moves the balance exactly
// as the table says (a pay deducts its amount, WIN and DRAW credit theirs, LOSE nothing, REFUND the
// stored amount, not the one in its body); a REFUND of a deposit never stored answers 200 and changes
// nothing; a pay above the balance is refused the way the client SDK can show it, and costs nothing.
import { HUGE_AMOUNT } from '../bodies';
import { effectOf, messageBytes, payBefore, step } from './messages';
import { RULES } from './rules';
import type { Endpoint, MatrixCheck } from './types';

/** The id of the valid cell of an endpoint: the checks of that endpoint depend on it. */
export const validId = (endpoint: Endpoint): string => (endpoint === 'pay' ? 'pay.valid' : `results.${endpoint}.valid`);

const MONEY_RULE = { pay: RULES.payDeducts, WIN: RULES.winCredits, DRAW: RULES.drawCredits, LOSE: RULES.loseNoAction, REFUND: RULES.refundStored } as const;

const MONEY_TITLE: Record<Endpoint, string> = {
  pay: 'deducts the stake once',
  WIN: 'credits the WIN amount once',
  DRAW: 'credits the DRAW amount once',
  LOSE: 'changes nothing',
  REFUND: 'returns the stored amount once',
};

const MONEY_FINDING: Record<Endpoint, string> = {
  pay: 'a pay does not deduct its stake exactly once',
  WIN: 'a WIN does not credit its amount exactly once',
  DRAW: 'a DRAW does not credit its amount exactly once',
  LOSE: 'a LOSE changes the balance',
  REFUND: 'a REFUND does not return the stored amount exactly once',
};

function validCell(endpoint: Endpoint): MatrixCheck {
  const name = endpoint === 'pay' ? 'A valid pay' : `A valid ${endpoint} after its pay`;
  return {
    id: validId(endpoint),
    title: `${name} is accepted`,
    tests: endpoint === 'pay' ? 'A correctly signed pay for a fresh depositId.' : `A pay, then its ${endpoint}, both correctly signed.`,
    rule: endpoint === 'pay' ? RULES.payAccepted : MONEY_RULE[endpoint],
    expectation: 'accepted',
    finding: endpoint === 'pay' ? 'refuses a valid pay: no user can enter a match' : `refuses a valid ${endpoint}: the deposit stays unsettled`,
    severity: endpoint === 'pay' ? 1 : 3,
    money: { rule: MONEY_RULE[endpoint], title: `${name} ${MONEY_TITLE[endpoint]}`, finding: MONEY_FINDING[endpoint] },
    build: (s) => {
      const depositId = s.ids.deposit(endpoint);
      return {
        steps: [...payBefore(endpoint, s, depositId), step(endpoint, endpoint, messageBytes(endpoint, s, depositId), { expect: 'accepted' })],
        delta: effectOf(endpoint, s.bodies),
      };
    },
  };
}

const refundOfBodyAmount: MatrixCheck = {
  id: 'results.REFUND.body-amount',
  title: 'A REFUND whose body carries another amount than the pay is accepted',
  tests: 'A pay of the stake, then a REFUND whose amount is twice the stake.',
  rule: RULES.refundStored,
  expectation: 'accepted',
  finding: 'refuses a REFUND whose amount differs from the pay',
  severity: 3,
  dependsOn: [validId('REFUND')],
  money: {
    rule: RULES.refundStored,
    title: 'A REFUND returns the stored amount, not the one in its body',
    finding: 'a REFUND credits the amount in its body, not the stored one',
  },
  build: (s) => {
    const depositId = s.ids.deposit('refund-body');
    return {
      steps: [
        ...payBefore('REFUND', s, depositId),
        step('REFUND of twice the stake', 'REFUND', messageBytes('REFUND', s, depositId, { amount: s.bodies.stake * 2 }), { expect: 'accepted' }),
      ],
      delta: s.bodies.stake,
    };
  },
};

const refundOfUnknown: MatrixCheck = {
  id: 'results.REFUND.unknown-deposit',
  title: 'A REFUND of a depositId never paid answers 200',
  tests: 'A REFUND for a depositId the operator never saw (as after a crash before the pay was stored).',
  rule: RULES.refundUnknown,
  expectation: '200',
  finding: 'does not answer 200 to a REFUND of an unknown deposit: the platform retries it',
  severity: 4,
  money: {
    rule: RULES.refundUnknown,
    title: 'A REFUND of a depositId never paid changes nothing',
    finding: 'a REFUND of a deposit never paid credits the user',
  },
  build: (s) => ({ steps: [step('REFUND of an unknown deposit', 'REFUND', messageBytes('REFUND', s, s.ids.deposit('unknown')), { expect: '200' })], delta: 0 }),
};

const insufficientBalance: MatrixCheck = {
  id: 'pay.refused.insufficient-balance',
  title: 'A pay above the balance is refused with an error the client can show',
  tests: `A pay of ${HUGE_AMOUNT.toLocaleString('en-US')}, far above any balance.`,
  rule: RULES.refusal,
  expectation: 'error-body',
  finding: 'refuses a pay in a way the client SDK never shows',
  severity: 4,
  dependsOn: [validId('pay')],
  // An operator that deducts the refused pay anyway runs the user dry: nothing may come after it.
  last: true,
  money: { rule: RULES.refusedNoCharge, title: 'A refused pay changes nothing', finding: 'a refused pay still changes the balance' },
  build: (s) => ({
    steps: [
      step('pay far above the balance', 'pay', s.bodies.pay({ userId: s.userId, depositId: s.ids.deposit('too-much'), amount: HUGE_AMOUNT }), {
        expect: 'error-body',
      }),
    ],
    delta: 0,
  }),
};

export function lifecycleChecks(endpoints: readonly Endpoint[]): MatrixCheck[] {
  return [...endpoints.map(validCell), refundOfBodyAmount, refundOfUnknown, insufficientBalance];
}
