// Idempotency (section 3): the same message again, one after the other and N at once, for every
// endpoint. Every copy answers 2XX (a retry must not look like a failure) and the balance moves as
// for one message: the sequential copy changes nothing, the concurrent copies together once.
import { validId } from './lifecycle';
import { effectOf, messageBytes, payBefore, step } from './messages';
import { RULES } from './rules';
import type { Endpoint, MatrixCheck } from './types';

const ruleOf = (endpoint: Endpoint) => (endpoint === 'pay' ? RULES.payIdempotent : RULES.resultsOnce);
const nameOf = (endpoint: Endpoint) => (endpoint === 'pay' ? 'pay' : endpoint);

function sequential(endpoint: Endpoint): MatrixCheck {
  return {
    id: `duplicate.sequential.${endpoint}`,
    title: `The same ${nameOf(endpoint)} again is answered 2XX`,
    tests: `${endpoint === 'pay' ? 'A pay' : `A pay and its ${endpoint}`}, then the same ${nameOf(endpoint)} again (same bytes), as the platform retries.`,
    rule: ruleOf(endpoint),
    expectation: '2XX',
    finding: `refuses a repeated ${nameOf(endpoint)}: the platform keeps retrying it`,
    severity: 3,
    dependsOn: [validId(endpoint)],
    money: {
      rule: ruleOf(endpoint),
      title: `The same ${nameOf(endpoint)} again changes nothing`,
      finding: endpoint === 'pay' ? 'charges a repeated pay again' : `processes a repeated ${endpoint} again`,
    },
    build: (s) => {
      const depositId = s.ids.deposit(`dup-${endpoint}`);
      const body = messageBytes(endpoint, s, depositId);
      return {
        steps: [
          ...payBefore(endpoint, s, depositId),
          step(nameOf(endpoint), endpoint, body, { needs: 'accepted' }),
          step(`the same ${nameOf(endpoint)} again`, endpoint, body, { expect: '2XX' }),
        ],
        delta: 0,
      };
    },
  };
}

function concurrent(endpoint: Endpoint): MatrixCheck {
  return {
    id: `duplicate.concurrent.${endpoint}`,
    title: `The same ${nameOf(endpoint)} sent N times at once is answered 2XX`,
    tests: `${endpoint === 'pay' ? '' : `A pay, then `}N identical ${nameOf(endpoint)} requests at once (--concurrency, default 5).`,
    rule: ruleOf(endpoint),
    expectation: '2XX',
    finding: `refuses concurrent copies of a ${nameOf(endpoint)}`,
    severity: 3,
    dependsOn: [validId(endpoint)],
    money: {
      rule: ruleOf(endpoint),
      title: `The same ${nameOf(endpoint)} sent N times at once counts once`,
      finding: endpoint === 'pay' ? 'concurrent duplicate pays are charged more than once' : `concurrent duplicate ${endpoint}s are processed more than once`,
    },
    build: (s) => {
      const depositId = s.ids.deposit(`conc-${endpoint}`);
      return {
        steps: [
          ...payBefore(endpoint, s, depositId),
          step(`${nameOf(endpoint)} ×${s.concurrency} at once`, endpoint, messageBytes(endpoint, s, depositId), { expect: '2XX', copies: s.concurrency }),
        ],
        delta: effectOf(endpoint, s.bodies),
      };
    },
  };
}

export function duplicateChecks(endpoints: readonly Endpoint[]): MatrixCheck[] {
  return [...endpoints.map(sequential), ...endpoints.map(concurrent)];
}
