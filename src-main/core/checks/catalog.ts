// The edge-case catalog: named situations that reproduce the operator problems support staff meet.
// Each case says what it tests, what the spec expects, and which requests it sends; cases whose
// answer the spec decides are judged (checkable), the others are sent for a person to read.
import type { EdgeCase } from '../../shared/model';
import { toBytes } from '../protocol';
import { HUGE_AMOUNT, nonCanonical, payBytes, payObject, payWithRawAmount, resultBytes, resultWithGame, UNKNOWN_GAME } from './bodies';
import { judge, type Expectation, type Judgement } from './judge';
import type { RunIds } from './run-ids';
import type { CaseStep, StepOutcome } from './steps';

export interface CaseBuild {
  userId: string;
  ids: RunIds;
}

export interface EdgeCaseDef extends EdgeCase {
  steps(b: CaseBuild): CaseStep[];
  /** Judges the answers; absent where the spec does not decide the outcome. */
  judge?: (outcomes: StepOutcome[]) => Judgement;
}

const PAY = '/platform/pay';
const RESULTS = '/platform/results';

/** Every step must meet the expectation; the first that does not decides. */
function every(expectation: Expectation): (outcomes: StepOutcome[]) => Judgement {
  return (outcomes) => {
    for (const o of outcomes) {
      const j = judge(expectation, o);
      if (!j.pass) return { pass: false, reason: `${o.label}: ${j.reason}` };
    }
    return { pass: true };
  };
}

/** The last step decides; earlier steps only set the scene. */
function last(expectation: Expectation): (outcomes: StepOutcome[]) => Judgement {
  return (outcomes) => {
    const o = outcomes[outcomes.length - 1];
    if (!o) return { pass: false, reason: 'nothing was sent' };
    const j = judge(expectation, o);
    return j.pass ? j : { pass: false, reason: `${o.label}: ${j.reason}` };
  };
}

const pay = (label: string, body: Uint8Array, extra: Partial<CaseStep> = {}): CaseStep => ({ label, path: PAY, body, ...extra });
const results = (label: string, body: Uint8Array, extra: Partial<CaseStep> = {}): CaseStep => ({ label, path: RESULTS, body, ...extra });

function nonCanonicalCase(id: string, title: string, how: string, make: (input: { userId: string; depositId: string }) => Uint8Array): EdgeCaseDef {
  return {
    id,
    title,
    tests: `A pay whose bytes are ${how}, signed correctly over those exact bytes. An operator that parses and re-serializes the body before computing the HMAC gets other bytes and wrongly rejects it.`,
    expected: 'Status 2XX: the operator computes the HMAC over the raw bytes it received (section 5.1).',
    checkable: true,
    steps: ({ userId, ids }) => [pay('pay', make({ userId, depositId: ids.deposit(id) }))],
    judge: every('2XX'),
  };
}

export const EDGE_CASES: readonly EdgeCaseDef[] = [
  {
    id: 'duplicate-pay',
    title: 'Duplicate pay',
    tests: 'The same pay (same depositId, same bytes) sent twice, as the service does when it retries.',
    expected: 'Both answer 2XX and the balance is charged once: depositId is the idempotency key (section 3). The charge itself is not visible through the interface.',
    checkable: true,
    steps: ({ userId, ids }) => {
      const body = payBytes({ userId, depositId: ids.deposit('dup-pay') });
      return [pay('pay', body), pay('the same pay again', body)];
    },
    judge: every('2XX'),
  },
  {
    id: 'duplicate-results',
    title: 'Duplicate results',
    tests: 'A pay, its WIN, and the same WIN again.',
    expected: 'Every answer is 2XX and the WIN is credited once (section 3: "do not process twice").',
    checkable: true,
    steps: ({ userId, ids }) => {
      const depositId = ids.deposit('dup-results');
      const win = resultBytes('WIN', { userId, depositId, roomId: ids.room('dup-results') });
      return [pay('pay', payBytes({ userId, depositId })), results('WIN', win), results('the same WIN again', win)];
    },
    judge: every('2XX'),
  },
  {
    id: 'refund-unknown-deposit',
    title: 'Refund of an unknown depositId',
    tests: 'A REFUND for a depositId the operator never saw (as after a crash before the pay was stored).',
    expected: 'Status 200 and nothing else happens (sections 3 and 7.3).',
    checkable: true,
    steps: ({ userId, ids }) => [results('REFUND', resultBytes('REFUND', { userId, depositId: ids.deposit('unknown-refund') }))],
    judge: every('200'),
  },
  {
    id: 'refund-after-pay',
    title: 'Refund after a pay',
    tests: 'A pay, then its REFUND with the paid amount.',
    expected: 'Both answer 2XX and the stored amount is returned to the user (section 3).',
    checkable: true,
    steps: ({ userId, ids }) => {
      const depositId = ids.deposit('refund');
      return [pay('pay', payBytes({ userId, depositId })), results('REFUND', resultBytes('REFUND', { userId, depositId, roomId: ids.room('refund') }))];
    },
    judge: every('2XX'),
  },
  {
    id: 'results-before-pay',
    title: 'Results before any pay',
    tests: 'A WIN for a depositId that was never paid.',
    expected: 'Not stated by the spec (a pay is the precondition of every result). The operator should not credit a deposit it never debited; read its answer and its ledger.',
    checkable: false,
    steps: ({ userId, ids }) => [results('WIN without a pay', resultBytes('WIN', { userId, depositId: ids.deposit('no-pay') }))],
  },
  {
    id: 'missing-signature',
    title: 'Missing signature',
    tests: 'A valid pay without the x-server-authorization header.',
    expected: 'Status 4XX: the request is rejected (section 5.1).',
    checkable: true,
    steps: ({ userId, ids }) => [pay('unsigned pay', payBytes({ userId, depositId: ids.deposit('no-sig') }), { signature: 'none' })],
    judge: every('4XX'),
  },
  {
    id: 'invalid-signature',
    title: 'Invalid signature',
    tests: 'A valid pay with a well-formed signature that does not match its bytes.',
    expected: 'Status 4XX: the request is rejected (sections 5.1 and 7.4).',
    checkable: true,
    steps: ({ userId, ids }) => [pay('badly signed pay', payBytes({ userId, depositId: ids.deposit('bad-sig') }), { signature: 'invalid' })],
    judge: every('4XX'),
  },
  {
    id: 'other-secret-signature',
    title: 'Signature made with another secret',
    tests: 'A valid pay signed correctly, but with a secret that is not the shared one.',
    expected: 'Status 4XX: the request is rejected (section 5.1).',
    checkable: true,
    steps: ({ userId, ids }) => [pay('pay signed with another secret', payBytes({ userId, depositId: ids.deposit('other-secret') }), { signature: 'other-secret' })],
    judge: every('4XX'),
  },
  nonCanonicalCase('non-canonical-pretty', 'Pretty-printed body', 'pretty-printed with two spaces and a trailing newline', (i) => nonCanonical.pretty(i)),
  nonCanonicalCase('non-canonical-decimal', 'Amount written as 10.50', 'compact but with the amount written 10.50', (i) => nonCanonical.decimal(i)),
  nonCanonicalCase('non-canonical-escapes', 'Unicode escapes (\\u0055SD)', 'compact but with the currency written as \\u escapes', (i) => nonCanonical.escapes(i)),
  nonCanonicalCase('non-canonical-key-order', 'Another key order', 'compact but with the members in another order than the spec lists them', (i) => nonCanonical.keyOrder(i)),
  {
    id: 'lose-minimal',
    title: 'LOSE without currency and amount',
    tests: 'A pay, then a LOSE that carries neither currency nor amount (the spec does not list them for LOSE).',
    expected: 'Status 2XX and no balance change (sections 2.2 and 3).',
    checkable: true,
    steps: ({ userId, ids }) => {
      const depositId = ids.deposit('lose');
      return [pay('pay', payBytes({ userId, depositId })), results('LOSE', resultBytes('LOSE', { userId, depositId, roomId: ids.room('lose') }))];
    },
    judge: last('2XX'),
  },
  {
    id: 'refund-null-room-game',
    title: 'REFUND with null roomId and gameId',
    tests: 'A pay, then a REFUND whose roomId and gameId are null (no match took place).',
    expected: 'Status 2XX and the paid amount is returned (sections 2.2 and 3).',
    checkable: true,
    steps: ({ userId, ids }) => {
      const depositId = ids.deposit('refund-null');
      return [pay('pay', payBytes({ userId, depositId })), results('REFUND with nulls', resultBytes('REFUND', { userId, depositId, roomId: null, gameId: null }))];
    },
    judge: last('2XX'),
  },
  {
    id: 'tournament-pay-and-results',
    title: 'Tournament pay and results',
    tests: 'A pay with a tournamentId, then its WIN with the same tournamentId.',
    expected: 'Both answer 2XX (sections 2.1 and 2.2: tournamentId is optional).',
    checkable: true,
    steps: ({ userId, ids }) => {
      const depositId = ids.deposit('tournament');
      const tournamentId = ids.tournament();
      return [
        pay('tournament pay', payBytes({ userId, depositId, tournamentId })),
        results('tournament WIN', resultBytes('WIN', { userId, depositId, tournamentId, roomId: ids.room('tournament') })),
      ];
    },
    judge: every('2XX'),
  },
  {
    id: 'unknown-game-id',
    title: 'Unknown gameId',
    tests: `A pay, then a WIN whose gameId ("${UNKNOWN_GAME}") is not one of solitaire, blocks, blackjack.`,
    expected: 'Not stated by the spec. Games may be added; an operator that refuses the result leaves the deposit unsettled. Read the answer.',
    checkable: false,
    steps: ({ userId, ids }) => {
      const depositId = ids.deposit('unknown-game');
      return [pay('pay', payBytes({ userId, depositId })), results('WIN with an unknown game', resultWithGame('WIN', { userId, depositId, roomId: ids.room('unknown-game') }, UNKNOWN_GAME))];
    },
  },
  {
    id: 'amount-edge-values',
    title: 'Amount edge values',
    tests: 'Pays with amounts 0.01, 1e2 (exponent notation), 0 and -5.',
    expected: 'Not stated by the spec (units and bounds not shown). Positive amounts in any JSON spelling should be accepted; 0 and negative amounts should be refused with a 4XX, never a 5XX.',
    checkable: false,
    steps: ({ userId, ids }) =>
      ['0.01', '1e2', '0', '-5'].map((raw) => pay(`pay of ${raw}`, payWithRawAmount({ userId, depositId: ids.deposit('amount') }, raw))),
  },
  {
    id: 'long-user-id',
    title: 'Long userId',
    tests: 'A pay whose userId is 1,000 characters long.',
    expected: 'Not stated by the spec. The operator answers as for any unknown user (a 4XX with an error body), never a 5XX or a cut-off id.',
    checkable: false,
    steps: ({ userId, ids }) => [pay('pay with a long userId', payBytes({ userId: `${userId}-${'x'.repeat(Math.max(0, 999 - userId.length))}`, depositId: ids.deposit('long-user') }))],
  },
  {
    id: 'non-ascii-user-id',
    title: 'Non-ASCII userId',
    tests: 'A pay whose userId holds accented letters, CJK characters and an emoji (UTF-8, unescaped).',
    expected: 'Not stated by the spec. The operator compares the userId exactly as UTF-8; a 5XX or a mangled id in its logs is a defect.',
    checkable: false,
    steps: ({ userId, ids }) => [pay('pay with a non-ASCII userId', payBytes({ userId: `${userId}-usér-测试-🎲`, depositId: ids.deposit('non-ascii-user') }))],
  },
  {
    id: 'unknown-extra-fields',
    title: 'Unknown extra fields',
    tests: 'A pay with fields the spec does not list (a string and a nested object).',
    expected: 'Not stated by the spec. A robust operator ignores fields it does not know and answers 2XX.',
    checkable: false,
    steps: ({ userId, ids }) => {
      const body = { ...payObject({ userId, depositId: ids.deposit('extra-fields') }), platformVersion: '2.1', meta: { source: 'wager-desk', retry: 0 } };
      return [pay('pay with extra fields', toBytes(body))];
    },
  },
  {
    id: 'insufficient-balance',
    title: 'A balance too low for the entry',
    tests: `A pay of ${HUGE_AMOUNT.toLocaleString('en-US')}, far above any balance.`,
    expected: 'Status 4XX with {"errors": [{"code": "INSUFFICIENT_BALANCE", "isClientSafe": true}]}: a string code and a boolean isClientSafe (sections 2.6 and 7).',
    checkable: true,
    steps: ({ userId, ids }) => [pay('pay above the balance', payBytes({ userId, depositId: ids.deposit('too-much'), amount: HUGE_AMOUNT }))],
    judge: every('error-body'),
  },
  {
    id: 'empty-body',
    title: 'Empty body',
    tests: 'POST /platform/pay with no bytes at all, correctly signed over the empty body.',
    expected: 'Not stated by the spec. A 4XX (there is nothing to process); never a 2XX, never a 5XX.',
    checkable: false,
    steps: () => [pay('empty pay', new Uint8Array(0))],
  },
  {
    id: 'wrong-content-type',
    title: 'Wrong content type',
    tests: 'A valid, correctly signed pay sent with Content-Type: text/plain.',
    expected: 'Not stated by the spec (the body is JSON). An operator that reads the body regardless answers 2XX; one that refuses should say why in a 4XX.',
    checkable: false,
    steps: ({ userId, ids }) => [pay('pay as text/plain', payBytes({ userId, depositId: ids.deposit('text-plain') }), { contentType: 'text/plain' })],
  },
];

export function findEdgeCase(id: string): EdgeCaseDef | undefined {
  return EDGE_CASES.find((c) => c.id === id);
}

/** The catalog as the API shows it: without the builders. */
export function listEdgeCases(): EdgeCase[] {
  return EDGE_CASES.map(({ id, title, tests, expected, checkable }) => ({ id, title, tests, expected, checkable }));
}
