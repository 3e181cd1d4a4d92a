// Section 5.1 crossed with every endpoint: each signature fault the desk knows, on a pay and on each
// result, must be refused and must change nothing. The faults that sign something other than the
// bytes sent (their compact form, their trimmed form) are sent with a spaced body, so that the bytes
// and what was signed differ the way they do when an operator verifies a re-serialization.
import { writeObject, membersOf } from '../raw-json';
import type { StepSignature } from '../steps';
import { validId } from './lifecycle';
import { messageObject, payBefore, step } from './messages';
import { RULES } from './rules';
import type { Endpoint, MatrixCheck } from './types';

type Fault = Exclude<StepSignature, 'valid'>;

interface FaultDef {
  fault: Fault;
  /** Part of the id: signature.<name>.<endpoint>. */
  name: string;
  /** What is sent, for titles: "without a signature". */
  what: string;
  /** What an operator that takes it does, for findings: "accepts unsigned". */
  accepts: string;
  spaced?: boolean;
  /** What taking it costs, where that is not a forgery: a signature over another form is the operator's own mistake. */
  consequence?: string;
}

export const FAULTS: readonly FaultDef[] = [
  { fault: 'none', name: 'missing', what: 'without a signature header', accepts: 'accepts unsigned' },
  { fault: 'invalid', name: 'wrong-value', what: 'with a well-formed signature that does not match', accepts: 'accepts a wrong signature on' },
  { fault: 'other-secret', name: 'wrong-secret', what: 'signed with a secret nobody shares', accepts: 'accepts a signature made with another secret on' },
  {
    fault: 'neighbour-secret',
    name: 'previous-or-other-profile-secret',
    what: "signed with the profile's previous secret or another profile's",
    accepts: "accepts a signature made with a previous or another profile's secret on",
  },
  { fault: 'uppercase', name: 'uppercase-hex', what: 'with the right digest in uppercase hex', accepts: 'accepts a signature in uppercase hex on' },
  {
    fault: 'compact',
    name: 'over-compact-form',
    what: 'spaced, with a signature over its compact form',
    accepts: 'verifies a re-serialization (JSON.stringify of the parsed body), not the bytes received, on',
    spaced: true,
    consequence: "the platform's bytes will be refused whenever they are not compact",
  },
  {
    fault: 'trimmed',
    name: 'over-trimmed-body',
    what: 'with surrounding whitespace, signed over the trimmed body',
    accepts: 'verifies the trimmed body, not the bytes received, on',
    spaced: true,
    consequence: 'whitespace around a body can be changed without breaking its signature',
  },
  { fault: 'empty-object', name: 'over-empty-object', what: 'with a signature over {}', accepts: 'accepts a signature over {} on' },
];

const NOUN: Record<Endpoint, string> = { pay: 'pays', WIN: 'results', DRAW: 'results', LOSE: 'results', REFUND: 'results' };

const CONSEQUENCE: Record<Endpoint, string> = {
  pay: 'a forged pay would be charged',
  WIN: 'a forged WIN would be credited',
  DRAW: 'a forged DRAW would be credited',
  LOSE: 'a forged LOSE would settle the deposit',
  REFUND: 'a forged REFUND would be credited',
};

const COST: Record<Endpoint, string> = {
  pay: 'a forged pay was charged',
  WIN: 'a forged WIN was credited',
  DRAW: 'a forged DRAW was credited',
  LOSE: 'a forged LOSE moved the balance',
  REFUND: 'a forged REFUND was credited',
};

function faultCell(f: FaultDef, endpoint: Endpoint): MatrixCheck {
  const message = endpoint === 'pay' ? 'A pay' : `A ${endpoint}`;
  const finding = `${f.accepts} ${NOUN[endpoint]}${endpoint === 'pay' ? '' : ` (${endpoint})`}: ${f.consequence ?? CONSEQUENCE[endpoint]}`;
  return {
    id: `signature.${f.name}.${endpoint}`,
    title: `${message} ${f.what} is refused`,
    tests: `${endpoint === 'pay' ? 'A pay' : `A pay, then its ${endpoint}`} ${f.what}.`,
    rule: RULES.signature,
    expectation: '4XX',
    finding,
    // A forged credit is the worst there is; a forged charge or settlement next.
    severity: endpoint === 'WIN' || endpoint === 'DRAW' || endpoint === 'REFUND' ? 0 : 1,
    dependsOn: [validId(endpoint)],
    money: { rule: RULES.signature, title: `${message} ${f.what} changes nothing`, finding: COST[endpoint] },
    build: (s) => {
      const depositId = s.ids.deposit(`${f.name}-${endpoint}`);
      const members = membersOf(messageObject(endpoint, s, depositId));
      const body = f.spaced ? writeObject(members, { indent: 2, trailingNewline: true }) : writeObject(members);
      return {
        steps: [...payBefore(endpoint, s, depositId), step(`${endpoint} ${f.what}`, endpoint, body, { signature: f.fault, expect: '4XX' })],
        delta: 0,
      };
    },
  };
}

export function faultChecks(endpoints: readonly Endpoint[]): MatrixCheck[] {
  return FAULTS.flatMap((f) => endpoints.map((e) => faultCell(f, e)));
}
