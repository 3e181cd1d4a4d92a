// Order (section 3's states, generated whole): a pay is the precondition of every outcome, so each
// result for a deposit never paid changes nothing; a deposit is settled once, so every result after
// every other result of the same deposit (LOSE then REFUND, DRAW then WIN, REFUND then WIN, ...)
// changes nothing; and one user may hold two open deposits at once, each deducted on its own. The
// spec does not say how to answer a result that changes nothing; its money is judged, and a 5XX.
import type { ResultValue } from '../../../shared/model';
import { messageBytes, payBefore, step } from './messages';
import { RULES } from './rules';
import type { MatrixCheck } from './types';

/** The results a deposit can be settled with; a REFUND of a deposit never paid has its own check (it must answer 200). */
const RESULTS: readonly ResultValue[] = ['WIN', 'DRAW', 'LOSE', 'REFUND'];

function resultBeforePay(result: ResultValue): MatrixCheck {
  return {
    id: `ordering.results-before-pay.${result}`,
    title: `A ${result} for a depositId never paid changes nothing`,
    tests: `A ${result} for a depositId that was never paid.`,
    rule: RULES.payFirst,
    expectation: 'no-5XX',
    finding: `fails with a server error on a ${result} for a deposit never paid`,
    severity: 5,
    money: {
      rule: RULES.payFirst,
      title: `A ${result} for a depositId never paid changes nothing`,
      finding: `processes a ${result} for a deposit that was never paid`,
    },
    build: (s) => ({ steps: [step(`${result} without a pay`, result, messageBytes(result, s, s.ids.deposit('no-pay')), { expect: 'no-5XX' })], delta: 0 }),
  };
}

const twoOpenDeposits: MatrixCheck = {
  id: 'ordering.two-open-deposits.pay',
  title: 'A second open deposit of the same user is accepted and deducted',
  tests: 'A pay, then, before any result, a second pay of the same user for another depositId.',
  rule: RULES.payDeducts,
  expectation: 'accepted',
  finding: "keys a pay's idempotency on the user, not the depositId: a second open deposit is taken for a duplicate of the first",
  severity: 2,
  dependsOn: ['pay.valid'],
  money: {
    rule: RULES.payDeducts,
    title: 'A second open deposit of the same user deducts its own stake',
    finding: 'a second open deposit of the same user is not deducted',
  },
  build: (s) => {
    const first = s.ids.deposit('open-1');
    const second = s.ids.deposit('open-2');
    return {
      steps: [
        step('first pay', 'pay', s.bodies.pay({ userId: s.userId, depositId: first }), { needs: 'accepted' }),
        step('second pay of the same user, another depositId', 'pay', s.bodies.pay({ userId: s.userId, depositId: second }), { expect: 'accepted' }),
      ],
      delta: -s.bodies.stake,
    };
  },
};

function secondOutcome(first: ResultValue, then: ResultValue): MatrixCheck {
  return {
    id: `ordering.${then}-after-${first}`,
    title: `A ${then} after the deposit's ${first} changes nothing`,
    tests: `A pay, its ${first}, then a ${then} for the same deposit.`,
    rule: RULES.resultsOnce,
    expectation: 'no-5XX',
    finding: `fails with a server error on a ${then} after a ${first}`,
    severity: 5,
    dependsOn: [`results.${first}.valid`],
    money: {
      rule: RULES.resultsOnce,
      title: `A ${then} after a ${first} changes nothing`,
      finding: `processes a ${then} for a deposit already settled by a ${first}`,
    },
    build: (s) => {
      const depositId = s.ids.deposit(`${first}-${then}`);
      return {
        steps: [
          ...payBefore(first, s, depositId),
          step(first, first, messageBytes(first, s, depositId), { needs: 'accepted' }),
          step(`${then} after the ${first}`, then, messageBytes(then, s, depositId), { expect: 'no-5XX' }),
        ],
        delta: 0,
      };
    },
  };
}

export function orderingChecks(): MatrixCheck[] {
  const pairs = RESULTS.flatMap((first) => RESULTS.filter((then) => then !== first).map((then) => secondOutcome(first, then)));
  return [...RESULTS.filter((r) => r !== 'REFUND').map(resultBeforePay), ...pairs, twoOpenDeposits];
}
