// Every row of section 3's table against the sandbox operator, through the real proxy and database.
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import { captures, json, latest, send, startProxy, type Reply } from '../proxy/helpers';
import { openDesk } from '../../helpers/desk';

const PAY = (depositId: string, amount = 5, userId = 'u-1') => ({ userId, depositId, currency: 'USD', amount });
const RESULT = (result: string, depositId: string, extra: Record<string, unknown> = {}) => {
  const base: Record<string, unknown> = { result, userId: 'u-1', depositId, roomId: 'r-1', gameId: 'solitaire' };
  if (result !== 'LOSE') Object.assign(base, { currency: 'USD', amount: result === 'WIN' ? 10 : 5 });
  return { ...base, ...extra };
};

async function sandbox(): Promise<{ desk: Desk; url: string; post: (path: string, body: unknown) => Promise<Reply> }> {
  const desk = openDesk();
  const { url } = await startProxy(desk);
  const post = (path: string, body: unknown) =>
    send(url, { path, body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { desk, url, post };
}

async function balance(desk: Desk, userId = 'u-1'): Promise<number | undefined> {
  const state = await desk.getSandboxState();
  if (!state.ok) throw new Error(state.error.message);
  return state.value.users.find((u) => u.userId === userId)?.balance;
}

describe('sandbox operator: pay', () => {
  it('first pay of a depositId: deducts the amount and stores the deposit with it', async () => {
    const { desk, post } = await sandbox();
    const reply = await post('/platform/pay', PAY('d-1', 7.5));
    expect(reply.status).toBe(200);
    expect(json(reply)).toEqual({ status: 'ok', depositId: 'd-1', userId: 'u-1', balance: 992.5 });
    expect(await balance(desk)).toBe(992.5);
    const state = await desk.getSandboxState();
    expect(state.ok && state.value.deposits).toEqual([
      expect.objectContaining({ depositId: 'd-1', userId: 'u-1', amount: 7.5, currency: 'USD', outcome: null, settledAt: null }),
    ]);
  });

  it('a depositId already processed: no second deduction, the very same answer', async () => {
    const { desk, post } = await sandbox();
    const first = await post('/platform/pay', PAY('d-2'));
    await post('/platform/pay', PAY('d-3')); // the balance moves on in between
    const again = await post('/platform/pay', PAY('d-2'));
    expect(again.status).toBe(first.status);
    expect(again.body.equals(first.body)).toBe(true);
    expect(await balance(desk)).toBe(990);
    const row = await latest(desk);
    expect(row.findings.some((f) => /already paid/.test(f.message))).toBe(true);
  });

  it('a repeated depositId with a different amount is answered as the first and flagged', async () => {
    const { desk, post } = await sandbox();
    const first = await post('/platform/pay', PAY('d-4', 5));
    const changed = await post('/platform/pay', PAY('d-4', 50));
    expect(changed.body.equals(first.body)).toBe(true);
    expect(await balance(desk)).toBe(995);
    expect((await latest(desk)).findings).toContainEqual(expect.objectContaining({ level: 'warning', message: expect.stringMatching(/different amount/) }));
  });

  it('a balance too low: 402 with INSUFFICIENT_BALANCE, client safe; nothing deducted or stored', async () => {
    const { desk, post } = await sandbox();
    expect((await desk.setSandboxBalance('u-1', 3)).ok).toBe(true);
    const reply = await post('/platform/pay', PAY('d-5', 5));
    expect(reply.status).toBe(402);
    expect(json(reply)).toEqual({ errors: [{ code: 'INSUFFICIENT_BALANCE', isClientSafe: true }] });
    expect(await balance(desk)).toBe(3);
    const state = await desk.getSandboxState();
    expect(state.ok && state.value.deposits).toEqual([]);
    // Refusals are not stored: after a top-up the same depositId is judged afresh.
    await desk.setSandboxBalance('u-1', 100);
    expect((await post('/platform/pay', PAY('d-5', 5))).status).toBe(200);
    expect(await balance(desk)).toBe(95);
  });

  it('an invalid pay body: 400 INVALID_REQUEST, not client safe', async () => {
    const { desk, post } = await sandbox();
    for (const bad of ['{"userId":"u-1"}', 'not json', '', '[]', JSON.stringify({ ...PAY('d-6'), amount: '5' }), JSON.stringify(PAY(''))]) {
      const reply = await post('/platform/pay', bad);
      expect(reply.status, bad).toBe(400);
      expect(json(reply)).toEqual({ errors: [{ code: 'INVALID_REQUEST', isClientSafe: false }] });
    }
    expect(await balance(desk)).toBeUndefined();
  });

  it('uses the configured starting balance for users it has not seen', async () => {
    const { desk, post } = await sandbox();
    expect((await desk.setSandboxStartingBalance(20)).ok).toBe(true);
    expect(json(await post('/platform/pay', PAY('d-7', 5, 'new-user')))).toMatchObject({ balance: 15 });
    const state = await desk.getSandboxState();
    expect(state.ok && state.value.startingBalance).toBe(20);
  });
});

describe('sandbox operator: results', () => {
  for (const result of ['WIN', 'DRAW'] as const) {
    it(`${result}, first time for the depositId: credits the amount once`, async () => {
      const { desk, post } = await sandbox();
      await post('/platform/pay', PAY('d-1'));
      const first = await post('/platform/results', RESULT(result, 'd-1', { amount: 12 }));
      expect(first.status).toBe(200);
      expect(json(first)).toEqual({ status: 'ok', depositId: 'd-1', result, userId: 'u-1', balance: 1007 });
      const again = await post('/platform/results', RESULT(result, 'd-1', { amount: 12 }));
      expect(again.body.equals(first.body)).toBe(true);
      expect(await balance(desk)).toBe(1007);
    });
  }

  it('LOSE: no action, answered 200; the deposit counts as processed', async () => {
    const { desk, post } = await sandbox();
    await post('/platform/pay', PAY('d-1'));
    const reply = await post('/platform/results', RESULT('LOSE', 'd-1'));
    expect(reply.status).toBe(200);
    expect(await balance(desk)).toBe(995);
    const win = await post('/platform/results', RESULT('WIN', 'd-1'));
    expect(win.body.equals(reply.body)).toBe(true);
    expect(await balance(desk)).toBe(995);
    expect((await latest(desk)).findings).toContainEqual(
      expect.objectContaining({ level: 'warning', message: expect.stringMatching(/already settled as LOSE/) }),
    );
  });

  it("REFUND of a stored depositId: refunds the stored amount (not the message's), once", async () => {
    const { desk, post } = await sandbox();
    await post('/platform/pay', PAY('d-1', 8));
    const reply = await post('/platform/results', RESULT('REFUND', 'd-1', { amount: 100, roomId: null, gameId: null }));
    expect(reply.status).toBe(200);
    expect(await balance(desk)).toBe(1000);
    expect((await latest(desk)).findings).toContainEqual(
      expect.objectContaining({ path: '$.amount', message: expect.stringMatching(/stored amount is refunded/) }),
    );
    await post('/platform/results', RESULT('REFUND', 'd-1', { amount: 8 }));
    expect(await balance(desk)).toBe(1000);
    const state = await desk.getSandboxState();
    expect(state.ok && state.value.deposits[0]).toMatchObject({ depositId: 'd-1', outcome: 'REFUND', settledAt: expect.any(String) });
  });

  it('REFUND of a depositId never stored: ignored and answered 200', async () => {
    const { desk, post } = await sandbox();
    const reply = await post('/platform/results', RESULT('REFUND', 'never-stored', { roomId: null, gameId: null }));
    expect(reply.status).toBe(200);
    expect(json(reply)).toEqual({ status: 'ignored', depositId: 'never-stored', result: 'REFUND' });
    const state = await desk.getSandboxState();
    expect(state.ok && state.value).toMatchObject({ users: [], deposits: [] });
  });

  it('results for a deposit never paid: answered 200, nothing credited, a finding on the capture', async () => {
    const { desk, post } = await sandbox();
    const reply = await post('/platform/results', RESULT('WIN', 'ghost'));
    expect(reply.status).toBe(200);
    expect(await balance(desk)).toBeUndefined();
    const row = await latest(desk);
    expect(row.findings).toContainEqual(expect.objectContaining({ level: 'warning', path: '$.depositId', message: expect.stringMatching(/never paid/) }));
    expect(row.response?.status).toBe(200);
  });

  it('an invalid results body: 400 INVALID_REQUEST', async () => {
    const { post } = await sandbox();
    for (const bad of [RESULT('WINS', 'd-1'), { ...RESULT('WIN', 'd-1'), amount: undefined }, RESULT('LOSE', 'd-1', { gameId: 'chess' })]) {
      const reply = await post('/platform/results', bad);
      expect(reply.status, JSON.stringify(bad)).toBe(400);
      expect(json(reply)).toEqual({ errors: [{ code: 'INVALID_REQUEST', isClientSafe: false }] });
    }
  });
});

describe('sandbox operator: idempotency under concurrency, other paths, state', () => {
  it('twenty copies of one pay and of one WIN, all at once: one deduction, one credit, one answer', async () => {
    const { desk, post } = await sandbox();
    const pays = await Promise.all(Array.from({ length: 20 }, () => post('/platform/pay', PAY('d-c', 5))));
    expect(new Set(pays.map((r) => r.body.toString())).size).toBe(1);
    expect(await balance(desk)).toBe(995);
    const wins = await Promise.all(Array.from({ length: 20 }, () => post('/platform/results', RESULT('WIN', 'd-c', { amount: 10 }))));
    expect(new Set(wins.map((r) => r.body.toString())).size).toBe(1);
    expect(await balance(desk)).toBe(1005);
    expect((await captures(desk)).length).toBe(40);
  });

  it('answers 404 for other paths and 405 for other methods on the callbacks, in the error shape', async () => {
    const { desk, url } = await sandbox();
    const notFound = await send(url, { path: '/platform/other', body: '{}' });
    expect(notFound.status).toBe(404);
    expect(json(notFound)).toEqual({ errors: [{ code: 'NOT_FOUND', isClientSafe: false }] });
    const get = await send(url, { method: 'GET', path: '/platform/pay' });
    expect(get.status).toBe(405);
    expect(get.headers).toContainEqual(['allow', 'POST']);
    expect((await captures(desk)).map((c) => c.response?.status)).toEqual([405, 404]);
  });

  it('lists, sets and resets balances and deposits through the desk', async () => {
    const { desk, post } = await sandbox();
    await post('/platform/pay', PAY('d-1', 5, 'alice'));
    const set = await desk.setSandboxBalance('bob', 42);
    expect(set.ok && set.value.users).toEqual([
      { userId: 'alice', balance: 995 },
      { userId: 'bob', balance: 42 },
    ]);
    expect((await desk.setSandboxBalance('bob', Number.NaN)).ok).toBe(false);
    expect((await desk.setSandboxBalance('', 1)).ok).toBe(false);
    const reset = await desk.resetSandbox();
    expect(reset.ok && reset.value).toEqual({ startingBalance: 1000, users: [], deposits: [] });
    // After a reset the old depositId is new again.
    expect(json(await post('/platform/pay', PAY('d-1', 5, 'alice')))).toMatchObject({ balance: 995 });
  });
});
