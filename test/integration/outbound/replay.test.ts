import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk, sqliteOf, logOf } from '../../helpers/desk';
import { startOperator, type StandInOperator } from '../../helpers/operator';
import { capture } from '../../helpers/captures';
import { startRecorder } from '../../helpers/servers';
import { exchangeOf, exchangesOf } from '../../helpers/log-reads';

const SECRET = 'replay-test-secret';
const hmac = (bytes: Buffer | Uint8Array, secret = SECRET) => createHmac('sha256', secret).update(bytes).digest('hex');
const refund = { result: 'REFUND', userId: 'u-1', depositId: 'd-77', roomId: 'r-1', gameId: 'solitaire', currency: 'USD', amount: 5 };

let desk: Desk | undefined;
let operator: StandInOperator | undefined;

async function setup(profile: { production?: boolean; secret?: string | null } = {}) {
  desk = openDesk();
  operator = closeAfterTest(await startOperator({ secret: SECRET }));
  const saved = await desk.saveProfile({
    name: 'staging',
    operatorUrl: operator.url,
    secret: profile.secret === undefined ? SECRET : profile.secret,
    production: profile.production ?? false,
  });
  expect(saved.ok).toBe(true);
  return { desk, operator };
}

describe('replay', () => {
  it('sends a capture again, unchanged, to the profile operator URL; the source row never changes', async () => {
    const { desk, operator } = await setup();
    const body = JSON.stringify({ userId: 'u-1', depositId: 'd-1', currency: 'USD', amount: 5 });
    const id = await capture(desk, { body, signature: { secret: SECRET }, extraHeaders: [['User-Agent', 'platform-callbacks/1.0']] });
    const before = await logOf(desk).get(id);

    const res = await desk.replay({ sourceId: id });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value).toMatchObject({ direction: 'outbound', origin: 'replay', sourceId: id, kind: 'pay', response: { status: 200 } });
    expect(res.value.target).toBe(`${operator.url}/platform/pay`);
    expect(res.value.signature.verdict).toBe('valid');
    expect(operator.requests[0]!.body.toString()).toBe(body);
    expect(operator.requests[0]!.rawSignatureValid).toBe(true);
    // Captured connection headers stay behind; the message's own headers travel.
    expect(operator.requests[0]!.headers['user-agent']).toBe('platform-callbacks/1.0');
    expect(operator.requests[0]!.headers.host).toBe(operator.url.replace('http://', ''));

    const after = await exchangeOf(desk, id);
    expect({ ...after, derivedIds: [] }).toEqual({ ...before, derivedIds: [] });
    expect(after.derivedIds).toEqual([res.value.id]);
  });

  it('edits an emoji body by path and re-signs the exact bytes sent, which verify at a raw-bytes receiver', async () => {
    const { desk } = await setup();
    const receiver = await startRecorder((_req, _body, res) => res.end('{}'));
    try {
      const body = '{"userId":"🎲 player ✓","depositId":"d-emoji","currency":"USD","amount":5,"note":"ünïcödé 🚀"}';
      const id = await capture(desk, { body, signature: { secret: SECRET } });
      const res = await desk.replay({
        sourceId: id,
        to: receiver.url,
        set: [
          { path: 'amount', value: 7.25 },
          { path: 'note', value: 'edited 🎉' },
        ],
        unset: ['currency'],
      });
      expect(res.ok).toBe(true);
      const got = receiver.received[0]!;
      const header = got.rawHeaders[got.rawHeaders.findIndex((h) => h.toLowerCase() === 'x-server-authorization') + 1];
      expect(header).toBe(hmac(got.body));
      expect(JSON.parse(got.body.toString('utf8'))).toEqual({ userId: '🎲 player ✓', depositId: 'd-emoji', amount: 7.25, note: 'edited 🎉' });
      const length = got.rawHeaders[got.rawHeaders.findIndex((h) => h.toLowerCase() === 'content-length') + 1];
      expect(Number(length)).toBe(got.body.length);
    } finally {
      await receiver.close();
    }
  });

  it('replaces the body with raw bytes and signs them as they are', async () => {
    const { desk, operator } = await setup();
    const id = await capture(desk, { body: '{"userId":"u","depositId":"d-raw","currency":"USD","amount":5}', signature: { secret: SECRET } });
    const raw = '{\n  "userId": "u",\n  "depositId": "d-raw-2",\n  "currency": "USD",\n  "amount": 10.50\n}\n';
    const res = await desk.replay({ sourceId: id, bodyBase64: Buffer.from(raw).toString('base64') });
    expect(res.ok && res.value.response?.status).toBe(200);
    expect(operator.requests[0]!.body.toString()).toBe(raw);
    expect(operator.requests[0]!.rawSignatureValid).toBe(true);
  });

  it('applies each signature mode', async () => {
    const { desk, operator } = await setup();
    const body = JSON.stringify(refund);
    const original = hmac(Buffer.from(body), 'the-service-secret');
    const id = await capture(desk, { path: '/platform/results', body, signature: original });
    const sent = async (signature: 'keep' | 'none' | 'invalid' | 'custom', customSecret?: string) => {
      const res = await desk.replay({ sourceId: id, signature, ...(customSecret ? { customSecret } : {}) });
      expect(res.ok).toBe(true);
      return operator.requests[operator.requests.length - 1]!.headers['x-server-authorization'];
    };
    expect(await sent('keep')).toBe(original);
    expect(await sent('none')).toBeUndefined();
    const invalid = await sent('invalid');
    expect(invalid).toMatch(/^[0-9a-f]{64}$/);
    expect(invalid).not.toBe(hmac(Buffer.from(body)));
    expect(await sent('custom', 'a-custom-secret')).toBe(hmac(Buffer.from(body), 'a-custom-secret'));
    // The custom secret is not stored anywhere in the log.
    const all = sqliteOf(desk).prepare('SELECT * FROM exchanges').all();
    expect(JSON.stringify(all)).not.toContain('a-custom-secret');
    const last = (await exchangesOf(desk, { direction: 'outbound', limit: 1 }))[0]!;
    expect(last.signature.verdict).toBe('valid');
  });

  it('builds the REFUND of a captured pay in one call', async () => {
    const { desk, operator } = await setup();
    const payId = await capture(desk, {
      path: '/api/platform/pay',
      body: JSON.stringify({ userId: 'u-9', depositId: 'd-9', currency: 'EUR', amount: 4 }),
      signature: { secret: SECRET },
    });
    const res = await desk.replay({ sourceId: payId, followUp: 'REFUND', to: operator.url });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value).toMatchObject({
      sourceId: payId,
      origin: 'replay',
      kind: 'results',
      path: '/api/platform/results',
      result: 'REFUND',
      depositId: 'd-9',
      amount: 4,
    });
    const got = JSON.parse(operator.requests[0]!.body.toString()) as Record<string, unknown>;
    expect(got).toMatchObject({ result: 'REFUND', userId: 'u-9', depositId: 'd-9', currency: 'EUR', amount: 4 });
    expect(operator.requests[0]!.rawSignatureValid).toBe(true);
  });

  it('refuses without a secret, without a target, and for production without confirmation', async () => {
    const { desk, operator } = await setup({ secret: null });
    const id = await capture(desk, { body: '{"userId":"u","depositId":"d","currency":"USD","amount":1}' });
    const noSecret = await desk.replay({ sourceId: id });
    expect(!noSecret.ok && noSecret.error.code).toBe('no-secret');

    await desk.saveProfile({ name: 'staging', operatorUrl: null, secret: SECRET });
    const noTarget = await desk.replay({ sourceId: id });
    expect(!noTarget.ok && noTarget.error.code).toBe('no-target');

    await desk.saveProfile({ name: 'staging', production: true, operatorUrl: operator.url });
    const unconfirmed = await desk.replay({ sourceId: id });
    expect(unconfirmed.ok).toBe(false);
    if (!unconfirmed.ok) {
      expect(unconfirmed.error.code).toBe('needs-confirmation');
      expect(unconfirmed.error.message).toContain(operator.url);
    }
    expect(operator.requests).toHaveLength(0);
    const confirmed = await desk.replay({ sourceId: id, confirmedProduction: true });
    expect(confirmed.ok && confirmed.value.response?.status).toBe(200);
  });

  it('records the error in place of a response when nobody listens', async () => {
    const { desk } = await setup();
    const id = await capture(desk, { body: '{"userId":"u","depositId":"d","currency":"USD","amount":1}', signature: { secret: SECRET } });
    const closed = operator!.url;
    await operator!.close();
    operator = undefined;
    const res = await desk.replay({ sourceId: id, to: closed });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value.response).toBeNull();
    expect(res.value.error).toContain('Connection refused');
    expect((await exchangeOf(desk, res.value.id)).error).toContain("is the operator's server running?");
  });
});

describe('diffExchanges', () => {
  it('shows body fields, signature and response changes of a replay against its source', async () => {
    const { desk } = await setup();
    const id = await capture(desk, { path: '/platform/results', body: JSON.stringify(refund) });
    const res = await desk.replay({ sourceId: id, set: [{ path: 'amount', value: 9 }] });
    if (!res.ok) throw new Error(res.error.message);
    const diff = await desk.diffExchanges(id, res.value.id);
    expect(diff.ok).toBe(true);
    if (!diff.ok) return;
    expect(diff.value).toContainEqual({ area: 'body', path: '$.amount', before: 5, after: 9 });
    const signature = diff.value.find((d) => d.area === 'signature' && d.path === 'x-server-authorization');
    expect(signature?.before).toBeNull();
    expect(signature?.after).toMatch(/^[0-9a-f]{64}$/);
    expect(diff.value).toContainEqual({ area: 'signature', path: 'verdict', before: 'missing', after: 'valid' });
    expect(diff.value).toContainEqual({ area: 'status', path: 'status', before: null, after: 200 });
    expect(diff.value.some((d) => d.area === 'header' && d.path === 'host')).toBe(false);
  });
});
