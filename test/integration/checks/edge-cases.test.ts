import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import { startOperator, type StandInOperator } from '../../helpers/operator';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk, logOf } from '../../helpers/desk';
import { exchangeOf } from '../../helpers/log-reads';

const SECRET = 'edge-secret';
const REQUIRED = [
  'duplicate.sequential.pay',
  'duplicate.concurrent.pay',
  'duplicate.sequential.WIN',
  'duplicate.sequential.REFUND',
  'results.REFUND.unknown-deposit',
  'results.REFUND.body-amount',
  'ordering.results-before-pay.WIN',
  'ordering.REFUND-after-WIN',
  'signature.missing.pay',
  'signature.missing.WIN',
  'signature.wrong-value.REFUND',
  'signature.wrong-secret.pay',
  'signature.uppercase-hex.DRAW',
  'signature.over-compact-form.WIN',
  'signature.over-trimmed-body.LOSE',
  'signature.over-empty-object.pay',
  'shape.spaced.pay',
  'shape.escapes.pay',
  'shape.key-order.pay',
  'results.LOSE.valid',
  'shape.null-room-game.REFUND',
  'shape.tournament.WIN',
  'unknown-game-id',
  'amount-edge-values',
  'long-user-id',
  'non-ascii-user-id',
  'unknown-extra-fields',
  'pay.refused.insufficient-balance',
  'empty-body',
  'wrong-content-type',
];

let desk: Desk | undefined;
let operator: StandInOperator | undefined;

async function setup(defects = {}) {
  desk = openDesk();
  operator = closeAfterTest(await startOperator({ secret: SECRET, defects }));
  await desk.saveProfile({ name: 'p', secret: SECRET, operatorUrl: operator.url });
  return { desk, operator };
}

describe('edge-case catalog', () => {
  it('lists every required case with a title, what it tests and what the spec expects', async () => {
    const { desk } = await setup();
    const res = await desk.listEdgeCases();
    if (!res.ok) throw new Error(res.error.message);
    expect(res.value.map((c) => c.id)).toEqual(expect.arrayContaining(REQUIRED));
    for (const c of res.value) {
      expect(c.title.length).toBeGreaterThan(3);
      expect(c.tests.length).toBeGreaterThan(10);
      expect(c.expected.length).toBeGreaterThan(5);
      expect(typeof c.checkable).toBe('boolean');
      expect(c.rule?.section).toMatch(/^\d/);
    }
    expect(new Set(res.value.map((c) => c.id)).size).toBe(res.value.length);
  });

  it('runs every case against a correct operator: checkable ones pass, the others are left to a person', async () => {
    const { desk, operator } = await setup();
    const cases = await desk.listEdgeCases();
    if (!cases.ok) throw new Error(cases.error.message);
    for (const c of cases.value) {
      const run = await desk.runEdgeCase(c.id, { userId: 'edge-user' });
      if (!run.ok) throw new Error(`${c.id}: ${run.error.message}`);
      expect(run.value.caseId).toBe(c.id);
      // Without balance evidence a case with a money rule is not observable, never passed.
      const expected = !c.checkable ? undefined : run.value.checks?.some((r) => r.id.endsWith('.money')) ? 'not-observable' : 'pass';
      expect(run.value.outcome, `${c.id}: ${run.value.summary}`).toBe(expected);
      expect(run.value.exchangeIds.length).toBeGreaterThan(0);
      for (const id of run.value.exchangeIds) {
        expect(await logOf(desk).get(id)).toMatchObject({ origin: 'edge-case', direction: 'outbound' });
        expect((await exchangeOf(desk, id)).tags).toContain(`edge-case:${c.id}`);
      }
    }
    // Every non-canonical body was signed over its own bytes and differs from its compact form.
    const odd = operator.requests.filter((r) => r.rawSignatureValid && r.path === '/platform/pay').map((r) => r.body.toString('utf8'));
    expect(odd).toContainEqual(expect.stringContaining('\n  "userId": "edge-user"'));
    expect(odd).toContainEqual(expect.stringContaining('"currency":"\\u0055\\u0053\\u0044"'));
    // The profile writes integer minor units: the stake is 100, and no amount has a fraction.
    expect(odd).toContainEqual(expect.stringMatching(/^\{"amount":100,"currency":"USD","depositId":"wd-[0-9a-f]{32}","userId":"edge-user"\}$/));
    expect(odd.some((b) => /"amount":\s*-?\d+\.\d/.test(b))).toBe(false);
  });

  it('judges a case the operator gets wrong', async () => {
    const { desk } = await setup({ reserializesBeforeVerifying: true });
    const run = await desk.runEdgeCase('shape.spaced.pay', {});
    expect(run.ok && run.value.pass).toBe(false);
    expect(run.ok && run.value.summary).toContain('401');
    const fine = await desk.runEdgeCase('signature.missing.pay', {});
    expect(fine.ok && fine.value.checks?.find((r) => r.id === 'signature.missing.pay')?.outcome).toBe('pass');
  });

  it('sends the empty body and the wrong content type as asked, correctly signed', async () => {
    const { desk, operator } = await setup();
    await desk.runEdgeCase('empty-body', {});
    await desk.runEdgeCase('wrong-content-type', {});
    const [empty, text] = operator.requests;
    expect(empty!.body.length).toBe(0);
    expect(empty!.headers['content-length']).toBe('0');
    expect(empty!.headers['x-server-authorization']).toBe(createHmac('sha256', SECRET).update(Buffer.alloc(0)).digest('hex'));
    expect(text!.headers['content-type']).toBe('text/plain');
    expect(text!.rawSignatureValid).toBe(true);
  });

  it('refuses an unknown case and a profile without a secret', async () => {
    const { desk } = await setup();
    const unknown = await desk.runEdgeCase('no-such-case', {});
    expect(!unknown.ok && unknown.error.code).toBe('not-found');
    await desk.saveProfile({ name: 'p', secret: null });
    const noSecret = await desk.runEdgeCase('duplicate.sequential.pay', {});
    expect(!noSecret.ok && noSecret.error.code).toBe('no-secret');
  });
});
