// Order (section 3): a pay is the precondition of every outcome, and a deposit is settled once, so a
// second outcome of any kind after the first (a REFUND after a WIN, a DRAW after a WIN, a WIN after a
// REFUND) changes nothing. The spec does not say how to answer them; only the money is judged, and
// a 5XX (the operator did not handle the case at all).
import type { ResultValue } from '../../../shared/model';
import { messageBytes, payBefore, step } from './messages';
import { RULES } from './rules';
import type { MatrixCheck } from './types';

const resultsBeforePay: MatrixCheck = {
  id: 'ordering.results-before-pay.WIN',
  title: 'A WIN for a depositId never paid credits nothing',
  tests: 'A WIN for a depositId that was never paid.',
  rule: RULES.payFirst,
  expectation: 'no-5XX',
  finding: 'fails with a server error on a WIN for a deposit never paid',
  severity: 5,
  money: { rule: RULES.payFirst, title: 'A WIN for a depositId never paid changes nothing', finding: 'credits a WIN for a deposit that was never paid' },
  build: (s) => ({ steps: [step('WIN without a pay', 'WIN', messageBytes('WIN', s, s.ids.deposit('no-pay')), { expect: 'no-5XX' })], delta: 0 }),
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
  return [resultsBeforePay, secondOutcome('WIN', 'REFUND'), secondOutcome('WIN', 'DRAW'), secondOutcome('REFUND', 'WIN')];
}
