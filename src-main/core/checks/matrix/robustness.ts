// What the spec leaves open but support meets every week: amounts at their edges, odd user ids,
// unknown fields and games, an empty body, a wrong content type. The desk expects what a robust
// operator does (never a 5XX; nothing charged for what it refuses); where even that cannot be said,
// the case is sent for a person to read and never judged.
import { toBytes } from '../../protocol';
import { UNKNOWN_GAME } from '../bodies';
import { validId } from './lifecycle';
import { messageBytes, step } from './messages';
import { RULES } from './rules';
import type { MatrixCheck } from './types';

const AFTER_A_VALID_PAY = [validId('pay')];

export function robustnessChecks(): MatrixCheck[] {
  return [
    {
      id: 'unknown-extra-fields',
      title: 'A pay with fields the spec does not list is accepted',
      tests: 'A pay with a string and a nested object the spec does not list.',
      rule: RULES.notStated,
      expectation: 'accepted',
      finding: 'refuses a pay carrying a field it does not know: any addition to the platform breaks it',
      severity: 3,
      dependsOn: AFTER_A_VALID_PAY,
      control: 'pay',
      money: {
        rule: RULES.payDeducts,
        title: 'A pay with extra fields deducts its stake once',
        finding: 'a pay with extra fields does not deduct its stake once',
      },
      build: (s) => {
        const body = {
          ...s.bodies.payObject({ userId: s.userId, depositId: s.ids.deposit('extra') }),
          platformVersion: '2.1',
          meta: { source: 'wager-desk', retry: 0 },
        };
        return { steps: [step('pay with extra fields', 'pay', toBytes(body), { expect: 'accepted' })], delta: -s.bodies.stake };
      },
    },
    {
      id: 'amount-edge-values',
      title: 'Amounts at their edges: small and exponent-written accepted, 0 and -5 refused',
      tests: 'Pays with small and exponent-written positive amounts (0.01 and 1e2; on an integer profile 1 and the stake), then 0 and -5.',
      rule: RULES.notStated,
      expectation: 'accepted',
      finding: 'accepts a pay of nothing or less, or fails on an amount spelled another way',
      severity: 3,
      dependsOn: AFTER_A_VALID_PAY,
      control: 'pay',
      money: {
        rule: RULES.refusedNoCharge,
        title: 'Edge amounts: the positive ones are deducted, 0 and -5 change nothing',
        finding: 'a pay of 0 or a negative amount moves the balance',
      },
      build: (s) => {
        const amounts = s.bodies.edgeAmounts();
        return {
          steps: amounts.map(({ raw, positive }) =>
            step(`pay of ${raw}`, 'pay', s.bodies.payWithRawAmount({ userId: s.userId, depositId: s.ids.deposit('amount') }, raw), {
              expect: positive ? 'accepted' : '4XX',
            }),
          ),
          delta: -amounts.filter((a) => a.positive).reduce((sum, a) => sum + Number(a.raw), 0),
        };
      },
    },
    {
      id: 'long-user-id',
      title: 'A pay with a 1,000-character userId gets an answer, not a 5XX',
      tests: 'A pay whose userId is 1,000 characters long.',
      rule: RULES.notStated,
      expectation: 'no-5XX',
      finding: 'fails with a server error on a long userId',
      severity: 5,
      build: (s) => ({
        steps: [
          step(
            'pay with a long userId',
            'pay',
            s.bodies.pay({ userId: `${s.userId}-${'x'.repeat(Math.max(0, 999 - s.userId.length))}`, depositId: s.ids.deposit('long') }),
            {
              expect: 'no-5XX',
            },
          ),
        ],
      }),
    },
    {
      id: 'non-ascii-user-id',
      title: 'A pay with a non-ASCII userId gets an answer, not a 5XX',
      tests: 'A pay whose userId holds accented letters, CJK characters and an emoji (UTF-8, unescaped).',
      rule: RULES.notStated,
      expectation: 'no-5XX',
      finding: 'fails with a server error on a non-ASCII userId',
      severity: 5,
      build: (s) => ({
        steps: [
          step('pay with a non-ASCII userId', 'pay', s.bodies.pay({ userId: `${s.userId}-usér-测试-🎲`, depositId: s.ids.deposit('utf8') }), {
            expect: 'no-5XX',
          }),
        ],
      }),
    },
    {
      id: 'other-currency',
      title: "A pay in a currency other than the profile's gets an answer, not a 5XX",
      tests: "A pay of the usual stake in another real currency (EUR, or USD on a EUR profile) than the profile's.",
      rule: RULES.notStated,
      // One-currency wallets refuse it (4XX with an error body) or convert it; which one is the operator's choice.
      expectation: 'no-5XX',
      finding: "fails with a server error on a pay in another currency than its wallets'",
      severity: 5,
      build: (s) => ({
        steps: [
          step(
            'pay in another currency',
            'pay',
            s.bodies.pay({ userId: s.userId, depositId: s.ids.deposit('other-currency'), currency: s.bodies.otherCurrency() }),
            { expect: 'no-5XX' },
          ),
        ],
      }),
    },
    {
      id: 'unknown-currency',
      title: 'A pay whose currency is not an ISO 4217 code gets an answer, not a 5XX',
      tests: 'A pay whose currency is "ZZZ", a code no currency has.',
      rule: RULES.notStated,
      expectation: 'no-5XX',
      finding: 'fails with a server error on an unknown currency code',
      severity: 5,
      build: (s) => ({
        steps: [
          step('pay in currency ZZZ', 'pay', s.bodies.pay({ userId: s.userId, depositId: s.ids.deposit('unknown-currency'), currency: 'ZZZ' }), {
            expect: 'no-5XX',
          }),
        ],
      }),
    },
    {
      id: 'empty-body',
      title: 'A signed pay with an empty body is refused',
      tests: 'A POST to the pay path with no bytes at all, correctly signed over the empty body.',
      rule: RULES.notStated,
      expectation: '4XX',
      finding: 'accepts a pay with an empty body',
      severity: 4,
      dependsOn: AFTER_A_VALID_PAY,
      money: { rule: RULES.refusedNoCharge, title: 'An empty pay changes nothing', finding: 'an empty pay moves the balance' },
      build: () => ({ steps: [step('empty pay', 'pay', new Uint8Array(0), { expect: '4XX' })], delta: 0 }),
    },
    {
      id: 'wrong-content-type',
      title: 'A pay sent as text/plain gets an answer, not a 5XX',
      tests: 'A valid, correctly signed pay sent with Content-Type: text/plain.',
      rule: RULES.notStated,
      expectation: 'no-5XX',
      finding: 'fails with a server error on a pay sent as text/plain',
      severity: 5,
      build: (s) => ({
        steps: [
          step('pay as text/plain', 'pay', s.bodies.pay({ userId: s.userId, depositId: s.ids.deposit('text') }), {
            contentType: 'text/plain',
            expect: 'no-5XX',
          }),
        ],
      }),
    },
    {
      id: 'unknown-game-id',
      title: `A WIN whose gameId ("${UNKNOWN_GAME}") is not one of the spec's games`,
      tests: `A pay, then a WIN whose gameId ("${UNKNOWN_GAME}") is not one of solitaire, blocks, blackjack.`,
      rule: RULES.notStated,
      expectation: null,
      finding: '',
      severity: 9,
      build: (s) => {
        const depositId = s.ids.deposit('game');
        return {
          steps: [
            step('pay', 'pay', s.bodies.pay({ userId: s.userId, depositId }), { needs: 'accepted' }),
            step('WIN with an unknown game', 'WIN', messageBytes('WIN', s, depositId, { gameId: UNKNOWN_GAME })),
          ],
        };
      },
    },
  ];
}
