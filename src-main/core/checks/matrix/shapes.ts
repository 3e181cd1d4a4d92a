// Bodies of the shapes real platforms send, each correctly signed over its exact bytes (section 5.1:
// the HMAC is over the payload received): spaced, \u escapes, another key order, all at once, the
// optional tournamentId, null roomId and gameId on a REFUND. Each is accepted and moves the balance
// as its plain form does. An operator that re-serializes before verifying refuses the first four.
import { DEFAULT_CURRENCY } from '../../protocol';
import { escapedString, membersOf, withRaw, writeObject, type RawMember } from '../raw-json';
import { validId } from './lifecycle';
import { effectOf, messageObject, payBefore, step } from './messages';
import { RULES } from './rules';
import type { CheckRule } from '../../../shared/model';
import type { Endpoint, MatrixCheck, MatrixScope } from './types';

interface Shape {
  name: string;
  what: string;
  rule: CheckRule;
  endpoints: readonly Endpoint[];
  write(members: RawMember[]): Uint8Array;
  /** Members the shape adds or changes before it is written. */
  extra?(s: MatrixScope): Record<string, unknown>;
  /** A pay the bodies write whole (with the amount it carries), where the shape also spells the amount. */
  pay?(s: MatrixScope, depositId: string): { body: Uint8Array; amount: number };
}

const escaped = (members: RawMember[]): RawMember[] => withRaw(members, 'currency', escapedString(DEFAULT_CURRENCY));

const SHAPES: readonly Shape[] = [
  {
    name: 'spaced',
    what: 'pretty-printed with two spaces and a trailing newline',
    rule: RULES.rawBytes,
    endpoints: ['pay', 'WIN', 'REFUND'],
    write: (m) => writeObject(m, { indent: 2, trailingNewline: true }),
  },
  { name: 'escapes', what: 'with the currency written as \\u escapes', rule: RULES.rawBytes, endpoints: ['pay', 'WIN'], write: (m) => writeObject(escaped(m)) },
  {
    name: 'key-order',
    what: 'with its members in reverse order',
    rule: RULES.rawBytes,
    endpoints: ['pay', 'WIN'],
    write: (m) => writeObject([...m].reverse()),
  },
  {
    name: 'all-at-once',
    what: 'spaced, escaped and re-ordered at once (the amount written 1.50 on decimal profiles)',
    rule: RULES.rawBytes,
    endpoints: ['pay'],
    write: (m) => writeObject(escaped([...m].reverse()), { indent: 2, trailingNewline: true }),
    pay: (s, depositId) => ({ body: s.bodies.allNonCanonical({ userId: s.userId, depositId }), amount: s.bodies.stake }),
  },
  {
    name: 'decimal-spelling',
    what: 'with its amount written 10.50 (a plain integer on integer profiles)',
    rule: RULES.rawBytes,
    endpoints: ['pay'],
    write: (m) => writeObject(m),
    pay: (s, depositId) => ({
      body: s.bodies.decimalSpelling({ userId: s.userId, depositId }),
      amount: s.bodies.amounts === 'integer' ? s.bodies.stake : 10.5,
    }),
  },
  {
    name: 'tournament',
    what: 'with a tournamentId',
    rule: RULES.payShape,
    endpoints: ['pay', 'WIN'],
    write: (m) => writeObject(m),
    extra: (s) => ({ tournamentId: s.ids.tournament() }),
  },
  {
    name: 'null-room-game',
    what: 'with null roomId and gameId',
    rule: RULES.resultShape,
    endpoints: ['REFUND'],
    write: (m) => writeObject(m),
    extra: () => ({ roomId: null, gameId: null }),
  },
];

function shapeCell(shape: Shape, endpoint: Endpoint): MatrixCheck {
  const message = endpoint === 'pay' ? 'pay' : endpoint;
  return {
    id: `shape.${shape.name}.${endpoint}`,
    title: `A correctly signed ${message} ${shape.what} is accepted`,
    tests: `${endpoint === 'pay' ? 'A pay' : `A pay, then its ${endpoint}`} ${shape.what}, signed over its exact bytes.`,
    rule: shape.rule,
    expectation: 'accepted',
    finding:
      shape.rule === RULES.rawBytes
        ? `refuses a correctly signed ${message} ${shape.what}: it verifies a re-serialization, not the bytes received, so the platform's bytes will be refused whenever they are not compact`
        : `refuses a correctly signed ${message} ${shape.what}`,
    severity: 2,
    dependsOn: [validId(endpoint)],
    control: endpoint,
    money: {
      rule: shape.rule,
      title: `A ${message} ${shape.what} moves the balance as a plain one`,
      finding: `a ${message} ${shape.what} does not move the balance as a plain one`,
    },
    build: (s) => {
      const depositId = s.ids.deposit(`${shape.name}-${endpoint}`);
      // A tournament WIN follows a tournament pay; other shapes pay plainly first.
      const tournament = shape.extra && endpoint !== 'pay' && shape.name === 'tournament' ? shape.extra(s) : null;
      const extra = tournament ?? shape.extra?.(s) ?? {};
      const before = tournament
        ? [step('tournament pay before it', 'pay', writeObject(membersOf(messageObject('pay', s, depositId, tournament))), { needs: 'accepted' as const })]
        : payBefore(endpoint, s, depositId);
      if (shape.pay && endpoint === 'pay') {
        const { body, amount } = shape.pay(s, depositId);
        return { steps: [step(`pay ${shape.what}`, 'pay', body, { expect: 'accepted' })], delta: -amount };
      }
      const body = shape.write(membersOf(messageObject(endpoint, s, depositId, extra)));
      return { steps: [...before, step(`${message} ${shape.what}`, endpoint, body, { expect: 'accepted' })], delta: effectOf(endpoint, s.bodies) };
    },
  };
}

export function shapeChecks(): MatrixCheck[] {
  return SHAPES.flatMap((shape) => shape.endpoints.map((e) => shapeCell(shape, e)));
}
