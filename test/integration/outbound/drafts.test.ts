import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import { creditFor } from '../../../src-main/core/protocol';
import { sign } from '../../../src-main/core/signing';
import type { Draft } from '../../../src-main/shared/model';
import { startOperator, type StandInOperator } from '../../helpers/operator';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk } from '../../helpers/desk';
import { capture } from '../../helpers/captures';

const SECRET = 'draft-secret';
const decode = (d: Draft) => JSON.parse(Buffer.from(d.bodyBase64, 'base64').toString('utf8')) as Record<string, unknown>;

let desk: Desk | undefined;
let operator: StandInOperator | undefined;

async function setup() {
  desk = openDesk();
  operator = closeAfterTest(await startOperator({ secret: SECRET }));
  await desk.saveProfile({ name: 'p', secret: SECRET, operatorUrl: operator.url });
  return { desk, operator };
}

describe('drafts', () => {
  it('turns a capture into a draft without its connection headers', async () => {
    const { desk } = await setup();
    const body = '{"userId":"u","depositId":"d","currency":"USD","amount":2}';
    const id = await capture(desk, { body, signature: { secret: SECRET }, extraHeaders: [['User-Agent', 'platform-callbacks/1.0']] });
    const res = await desk.draftFromExchange(id);
    if (!res.ok) throw new Error(res.error.message);
    expect(res.value).toMatchObject({ method: 'POST', path: '/platform/pay', sourceId: id });
    expect(Buffer.from(res.value.bodyBase64, 'base64').toString()).toBe(body);
    const names = res.value.headers.map(([n]) => n.toLowerCase());
    expect(names).toEqual(['content-type', 'x-server-authorization', 'user-agent']);
  });

  it('makes fresh templates of every kind for a user', async () => {
    const { desk } = await setup();
    const a = await desk.draftTemplate('pay', 'u-t');
    const b = await desk.draftTemplate('pay', 'u-t');
    const lose = await desk.draftTemplate('lose', 'u-t');
    if (!a.ok || !b.ok || !lose.ok) throw new Error('template failed');
    expect(decode(a.value)).toMatchObject({ userId: 'u-t', currency: 'USD' });
    expect(decode(a.value).depositId).not.toBe(decode(b.value).depositId);
    expect(lose.value.path).toBe('/platform/results');
    expect(decode(lose.value)).not.toHaveProperty('amount');
    const bad = await desk.draftTemplate('jackpot' as never, 'u');
    expect(!bad.ok && bad.error.code).toBe('bad-input');
  });

  it('derives a follow-up from a captured pay and refuses one from a results capture', async () => {
    const { desk } = await setup();
    const payId = await capture(desk, { body: '{"userId":"u","depositId":"d-f","currency":"USD","amount":3}' });
    const win = await desk.draftFollowUp(payId, 'WIN');
    if (!win.ok) throw new Error(win.error.message);
    expect(win.value).toMatchObject({ path: '/platform/results', sourceId: payId });
    expect(decode(win.value)).toMatchObject({ result: 'WIN', userId: 'u', depositId: 'd-f', currency: 'USD', amount: creditFor('WIN', 3) });
    const resultsId = await capture(desk, { path: '/platform/results', body: '{"result":"LOSE","userId":"u","depositId":"d","roomId":"r","gameId":"blocks"}' });
    const wrong = await desk.draftFollowUp(resultsId, 'REFUND');
    expect(!wrong.ok && wrong.error.code).toBe('bad-input');
  });

  it('previews the signature a send would carry, per mode', async () => {
    const { desk } = await setup();
    const draft = await desk.draftTemplate('pay', 'u');
    if (!draft.ok) throw new Error(draft.error.message);
    const bytes = Buffer.from(draft.value.bodyBase64, 'base64');
    expect(await desk.previewSignature(draft.value, 'resign', {})).toEqual({ ok: true, value: sign(bytes, SECRET) });
    expect(await desk.previewSignature(draft.value, 'none', {})).toEqual({ ok: true, value: null });
    expect(await desk.previewSignature(draft.value, 'custom', { customSecret: 'c' })).toEqual({ ok: true, value: sign(bytes, 'c') });
    const custom = await desk.previewSignature(draft.value, 'custom', {});
    expect(!custom.ok && custom.error.code).toBe('bad-input');
  });

  it('inspects a draft against the interface', async () => {
    const { desk } = await setup();
    const draft: Draft = {
      method: 'POST',
      path: '/platform/pay',
      headers: [],
      bodyBase64: Buffer.from('{"userId":"u","depositId":"d","currency":"USD"}').toString('base64'),
      sourceId: null,
    };
    const res = await desk.inspectDraft(draft);
    expect(res.ok && res.value.some((f) => f.level === 'error' && f.path === '$.amount')).toBe(true);
    const other = await desk.inspectDraft({ ...draft, path: '/health' });
    expect(other.ok && other.value.map((f) => f.level)).toEqual(['info']);
  });

  it('sends a draft with origin send, linked to its source', async () => {
    const { desk, operator } = await setup();
    const draft = await desk.draftTemplate('pay', 'u-send');
    if (!draft.ok) throw new Error(draft.error.message);
    const res = await desk.send({ draft: { ...draft.value, sourceId: null } });
    if (!res.ok) throw new Error(res.error.message);
    expect(res.value).toMatchObject({ origin: 'send', direction: 'outbound', sourceId: null, response: { status: 200 }, userId: 'u-send' });
    expect(operator.requests[0]!.rawSignatureValid).toBe(true);
    const noDraft = await desk.send({} as never);
    expect(!noDraft.ok && noDraft.error.code).toBe('bad-input');
  });
});
