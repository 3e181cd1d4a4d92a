// The edge-case catalog: named situations that reproduce the operator problems support staff meet.
// Each case says what it tests, what is expected, and which requests it sends. A step either sets
// the scene (needs: the answer it must get, else the case is blocked) or is judged (expect), with
// the same judging as the conformance check; cases where neither the spec nor the desk can say what
// the answer should be are sent for a person to read.
import type { EdgeCase } from '../../shared/model';
import { toBytes } from '../protocol';
import { HUGE_AMOUNT, UNKNOWN_GAME, type Bodies } from './bodies';
import type { RunIds } from './run-ids';
import type { CaseStep } from './steps';

export interface CaseBuild {
  userId: string;
  ids: RunIds;
  bodies: Bodies;
}

export interface EdgeCaseDef extends EdgeCase {
  steps(b: CaseBuild): CaseStep[];
}

const pay = (label: string, body: Uint8Array, extra: Partial<CaseStep> = {}): CaseStep => ({ label, to: 'pay', body, ...extra });
const results = (label: string, body: Uint8Array, extra: Partial<CaseStep> = {}): CaseStep => ({ label, to: 'results', body, ...extra });

function nonCanonicalCase(id: string, title: string, how: string, make: (b: Bodies, input: { userId: string; depositId: string }) => Uint8Array): EdgeCaseDef {
  return {
    id,
    title,
    tests: `A pay whose bytes are ${how}, signed correctly over those exact bytes. An operator that parses and re-serializes the body before computing the HMAC gets other bytes and wrongly rejects it.`,
    expected: 'Status 2XX: the operator computes the HMAC over the raw bytes it received (section 5.1).',
    checkable: true,
    steps: ({ userId, ids, bodies }) => [pay('pay', make(bodies, { userId, depositId: ids.deposit(id) }), { expect: 'accepted' })],
  };
}

export const EDGE_CASES: readonly EdgeCaseDef[] = [
  {
    id: 'duplicate-pay',
    title: 'Duplicate pay',
    tests: 'The same pay (same depositId, same bytes) sent twice, as the service does when it retries.',
    expected:
      'Both answer 2XX and the balance is charged once: depositId is the idempotency key (section 3). The charge itself is not visible through the interface.',
    checkable: true,
    steps: ({ userId, ids, bodies }) => {
      const body = bodies.pay({ userId, depositId: ids.deposit('dup-pay') });
      return [pay('pay', body, { expect: 'accepted' }), pay('the same pay again', body, { expect: '2XX' })];
    },
  },
  {
    id: 'duplicate-results',
    title: 'Duplicate results',
    tests: 'A pay, its WIN, and the same WIN again.',
    expected: 'Every answer is 2XX and the WIN is credited once (section 3: "do not process twice").',
    checkable: true,
    steps: ({ userId, ids, bodies }) => {
      const depositId = ids.deposit('dup-results');
      const win = bodies.result('WIN', { userId, depositId, roomId: ids.room('dup-results') });
      return [
        pay('pay', bodies.pay({ userId, depositId }), { needs: 'accepted' }),
        results('WIN', win, { expect: 'accepted' }),
        results('the same WIN again', win, { expect: '2XX' }),
      ];
    },
  },
  {
    id: 'refund-unknown-deposit',
    title: 'Refund of an unknown depositId',
    tests: 'A REFUND for a depositId the operator never saw (as after a crash before the pay was stored).',
    expected: 'Status 200 and nothing else happens (sections 3 and 7.3).',
    checkable: true,
    steps: ({ userId, ids, bodies }) => [results('REFUND', bodies.result('REFUND', { userId, depositId: ids.deposit('unknown-refund') }), { expect: '200' })],
  },
  {
    id: 'refund-after-pay',
    title: 'Refund after a pay',
    tests: 'A pay, then its REFUND with the paid amount.',
    expected: 'Both answer 2XX and the stored amount is returned to the user (section 3).',
    checkable: true,
    steps: ({ userId, ids, bodies }) => {
      const depositId = ids.deposit('refund');
      return [
        pay('pay', bodies.pay({ userId, depositId }), { needs: 'accepted' }),
        results('REFUND', bodies.result('REFUND', { userId, depositId, roomId: ids.room('refund') }), { expect: 'accepted' }),
      ];
    },
  },
  {
    id: 'results-before-pay',
    title: 'Results before any pay',
    tests: 'A WIN for a depositId that was never paid.',
    expected:
      'Not stated by the spec (a pay is the precondition of every result). The operator should not credit a deposit it never debited; read its answer and its ledger.',
    checkable: false,
    steps: ({ userId, ids, bodies }) => [results('WIN without a pay', bodies.result('WIN', { userId, depositId: ids.deposit('no-pay') }))],
  },
  {
    id: 'missing-signature',
    title: 'Missing signature',
    tests: 'A valid pay without the x-server-authorization header.',
    expected: 'Status 4XX: the request is rejected (section 5.1).',
    checkable: true,
    steps: ({ userId, ids, bodies }) => [pay('unsigned pay', bodies.pay({ userId, depositId: ids.deposit('no-sig') }), { signature: 'none', expect: '4XX' })],
  },
  {
    id: 'invalid-signature',
    title: 'Invalid signature',
    tests: 'A valid pay with a well-formed signature that does not match its bytes.',
    expected: 'Status 4XX: the request is rejected (sections 5.1 and 7.4).',
    checkable: true,
    steps: ({ userId, ids, bodies }) => [
      pay('badly signed pay', bodies.pay({ userId, depositId: ids.deposit('bad-sig') }), { signature: 'invalid', expect: '4XX' }),
    ],
  },
  {
    id: 'other-secret-signature',
    title: 'Signature made with another secret',
    tests: 'A valid pay signed correctly, but with a secret that is not the shared one.',
    expected: 'Status 4XX: the request is rejected (section 5.1).',
    checkable: true,
    steps: ({ userId, ids, bodies }) => [
      pay('pay signed with another secret', bodies.pay({ userId, depositId: ids.deposit('other-secret') }), { signature: 'other-secret', expect: '4XX' }),
    ],
  },
  nonCanonicalCase('non-canonical-pretty', 'Pretty-printed body', 'pretty-printed with two spaces and a trailing newline', (b, i) => b.pretty(i)),
  nonCanonicalCase(
    'non-canonical-decimal',
    'Amount written as 10.50 (decimal profiles)',
    'compact but with the amount written 10.50 (on an integer profile the amount stays an integer: 100.00 is a float to many parsers)',
    (b, i) => b.decimalSpelling(i),
  ),
  nonCanonicalCase('non-canonical-escapes', 'Unicode escapes (\\u0055SD)', 'compact but with the currency written as \\u escapes', (b, i) => b.escapes(i)),
  nonCanonicalCase('non-canonical-key-order', 'Another key order', 'compact but with the members in another order than the spec lists them', (b, i) =>
    b.keyOrder(i),
  ),
  {
    id: 'lose-minimal',
    title: 'LOSE without currency and amount',
    tests: 'A pay, then a LOSE that carries neither currency nor amount (the spec does not list them for LOSE).',
    expected: 'Status 2XX and no balance change (sections 2.2 and 3).',
    checkable: true,
    steps: ({ userId, ids, bodies }) => {
      const depositId = ids.deposit('lose');
      return [
        pay('pay', bodies.pay({ userId, depositId }), { needs: 'accepted' }),
        results('LOSE', bodies.result('LOSE', { userId, depositId, roomId: ids.room('lose') }), { expect: 'accepted' }),
      ];
    },
  },
  {
    id: 'refund-null-room-game',
    title: 'REFUND with null roomId and gameId',
    tests: 'A pay, then a REFUND whose roomId and gameId are null (no match took place).',
    expected: 'Status 2XX and the paid amount is returned (sections 2.2 and 3).',
    checkable: true,
    steps: ({ userId, ids, bodies }) => {
      const depositId = ids.deposit('refund-null');
      return [
        pay('pay', bodies.pay({ userId, depositId }), { needs: 'accepted' }),
        results('REFUND with nulls', bodies.result('REFUND', { userId, depositId, roomId: null, gameId: null }), { expect: 'accepted' }),
      ];
    },
  },
  {
    id: 'tournament-pay-and-results',
    title: 'Tournament pay and results',
    tests: 'A pay with a tournamentId, then its WIN with the same tournamentId.',
    expected: 'Both answer 2XX (sections 2.1 and 2.2: tournamentId is optional).',
    checkable: true,
    steps: ({ userId, ids, bodies }) => {
      const depositId = ids.deposit('tournament');
      const tournamentId = ids.tournament();
      return [
        pay('tournament pay', bodies.pay({ userId, depositId, tournamentId }), { expect: 'accepted' }),
        results('tournament WIN', bodies.result('WIN', { userId, depositId, tournamentId, roomId: ids.room('tournament') }), { expect: 'accepted' }),
      ];
    },
  },
  {
    id: 'unknown-game-id',
    title: 'Unknown gameId',
    tests: `A pay, then a WIN whose gameId ("${UNKNOWN_GAME}") is not one of solitaire, blocks, blackjack.`,
    expected: 'Not stated by the spec. Games may be added; an operator that refuses the result leaves the deposit unsettled. Read the answer.',
    checkable: false,
    steps: ({ userId, ids, bodies }) => {
      const depositId = ids.deposit('unknown-game');
      return [
        pay('pay', bodies.pay({ userId, depositId }), { needs: 'accepted' }),
        results('WIN with an unknown game', bodies.resultWithGame('WIN', { userId, depositId, roomId: ids.room('unknown-game') }, UNKNOWN_GAME)),
      ];
    },
  },
  {
    id: 'amount-edge-values',
    title: 'Amount edge values',
    tests: 'Pays with small and exponent-written positive amounts (0.01 and 1e2; on an integer profile 1 and the stake), then 0 and -5.',
    expected:
      'Units and bounds are not shown by the spec, but an entry of nothing or less is never a payment: positive amounts are accepted; 0 and negative amounts are refused with a 4XX, never accepted, never a 5XX.',
    checkable: true,
    steps: ({ userId, ids, bodies }) =>
      bodies
        .edgeAmounts()
        .map(({ raw, positive }) =>
          pay(`pay of ${raw}`, bodies.payWithRawAmount({ userId, depositId: ids.deposit('amount') }, raw), { expect: positive ? 'accepted' : '4XX' }),
        ),
  },
  {
    id: 'long-user-id',
    title: "Long userId (1,000 characters: longer than the 36 of the desk's own ids)",
    tests: 'A pay whose userId is 1,000 characters long.',
    expected: 'Not stated by the spec. The operator answers as for any unknown user (a 4XX with an error body), never a 5XX or a cut-off id.',
    checkable: true,
    steps: ({ userId, ids, bodies }) => [
      pay('pay with a long userId', bodies.pay({ userId: `${userId}-${'x'.repeat(Math.max(0, 999 - userId.length))}`, depositId: ids.deposit('long-user') }), {
        expect: 'no-5XX',
      }),
    ],
  },
  {
    id: 'non-ascii-user-id',
    title: 'Non-ASCII userId',
    tests: 'A pay whose userId holds accented letters, CJK characters and an emoji (UTF-8, unescaped).',
    expected: 'Not stated by the spec. The operator compares the userId exactly as UTF-8; a 5XX or a mangled id in its logs is a defect.',
    checkable: true,
    steps: ({ userId, ids, bodies }) => [
      pay('pay with a non-ASCII userId', bodies.pay({ userId: `${userId}-usér-测试-🎲`, depositId: ids.deposit('non-ascii-user') }), { expect: 'no-5XX' }),
    ],
  },
  {
    id: 'unknown-extra-fields',
    title: 'Unknown extra fields',
    tests: 'A pay with fields the spec does not list (a string and a nested object).',
    expected: 'Not stated by the spec. A robust operator ignores fields it does not know and answers 2XX.',
    checkable: true,
    steps: ({ userId, ids, bodies }) => {
      const body = {
        ...bodies.payObject({ userId, depositId: ids.deposit('extra-fields') }),
        platformVersion: '2.1',
        meta: { source: 'wager-desk', retry: 0 },
      };
      return [pay('pay with extra fields', toBytes(body), { expect: 'accepted' })];
    },
  },
  {
    id: 'insufficient-balance',
    title: 'A balance too low for the entry',
    tests: `A pay of ${HUGE_AMOUNT.toLocaleString('en-US')}, far above any balance.`,
    expected:
      'Status 4XX with {"errors": [{"code": "INSUFFICIENT_BALANCE", "isClientSafe": true}]}: a string code and a boolean isClientSafe (sections 2.6 and 7).',
    checkable: true,
    steps: ({ userId, ids, bodies }) => [
      pay('pay above the balance', bodies.pay({ userId, depositId: ids.deposit('too-much'), amount: HUGE_AMOUNT }), { expect: 'error-body' }),
    ],
  },
  {
    id: 'other-currency',
    title: "A currency other than the profile's",
    tests: "A pay of the usual stake in another real currency (EUR, or USD on a EUR profile) than the profile's.",
    expected:
      'Not stated by the spec. An operator whose wallets hold one currency refuses the pay with a 4XX and an error body, or converts it; never a 5XX, and never a charge of the same figure in its own currency.',
    checkable: true,
    steps: ({ userId, ids, bodies }) => [
      pay('pay in another currency', bodies.pay({ userId, depositId: ids.deposit('other-currency'), currency: bodies.otherCurrency() }), { expect: 'no-5XX' }),
    ],
  },
  {
    id: 'unknown-currency',
    title: 'A currency code that is not ISO 4217',
    tests: 'A pay whose currency is "ZZZ", a code no currency has.',
    expected: 'Not stated by the spec. A 4XX with an error body (there is no such money); never a 5XX.',
    checkable: true,
    steps: ({ userId, ids, bodies }) => [
      pay('pay in currency ZZZ', bodies.pay({ userId, depositId: ids.deposit('unknown-currency'), currency: 'ZZZ' }), { expect: 'no-5XX' }),
    ],
  },
  {
    id: 'empty-body',
    title: 'Empty body',
    tests: 'A POST to the pay path with no bytes at all, correctly signed over the empty body.',
    expected: 'Not stated by the spec. A 4XX (there is nothing to process); never a 2XX, never a 5XX.',
    checkable: true,
    steps: () => [pay('empty pay', new Uint8Array(0), { expect: '4XX' })],
  },
  {
    id: 'wrong-content-type',
    title: 'Wrong content type',
    tests: 'A valid, correctly signed pay sent with Content-Type: text/plain.',
    expected:
      'Not stated by the spec (the body is JSON). An operator that reads the body regardless answers 2XX; one that refuses should say why in a 4XX; never a 5XX.',
    checkable: true,
    steps: ({ userId, ids, bodies }) => [
      pay('pay as text/plain', bodies.pay({ userId, depositId: ids.deposit('text-plain') }), { contentType: 'text/plain', expect: 'no-5XX' }),
    ],
  },
];

export function findEdgeCase(id: string): EdgeCaseDef | undefined {
  return EDGE_CASES.find((c) => c.id === id);
}

/** The catalog as the API shows it: without the builders. */
export function listEdgeCases(): EdgeCase[] {
  return EDGE_CASES.map(({ id, title, tests, expected, checkable }) => ({ id, title, tests, expected, checkable }));
}
