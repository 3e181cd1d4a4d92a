// The sandbox keeps exact balances (decimal sums without float drift, integers as they are) and
// follows section 3 to the letter for a REFUND of a deposit it never stored, whatever the body lacks.
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import { addExact, subtractExact } from '../../../src-main/core/sandbox/exact-money';
import { captures, json, send, startProxy, type Reply } from '../proxy/helpers';
import { openDesk } from '../../helpers/desk';
import { exchangeOf } from '../../helpers/log-reads';

async function sandbox(amounts: 'integer' | 'decimal' = 'decimal'): Promise<{ desk: Desk; post: (path: string, body: unknown) => Promise<Reply> }> {
  const desk = openDesk();
  const saved = await desk.saveProfile({ name: 'p', amounts });
  if (!saved.ok) throw new Error(saved.error.message);
  const { url } = await startProxy(desk);
  const post = (path: string, body: unknown) =>
    send(url, { path, body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { desk, post };
}

describe('exact sums', () => {
  it('adds and subtracts decimals as decimals', () => {
    expect(addExact(0.1, 0.2)).toBe(0.3);
    expect(subtractExact(1000, 0.1)).toBe(999.9);
    expect(subtractExact(0.3, 0.1)).toBe(0.2);
    expect(addExact(1e21, 1)).toBe(1e21 + 1);
    expect(addExact(1e-7, 2e-7)).toBe(3e-7);
    expect(subtractExact(100, 250)).toBe(-150);
    expect(addExact(Number.MAX_SAFE_INTEGER - 1, 1)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('keeps sandbox balances exact over many decimal callbacks', async () => {
    const { desk, post } = await sandbox('decimal');
    for (let i = 0; i < 30; i++) expect((await post('/platform/pay', { userId: 'u-d', depositId: `d-${i}`, currency: 'USD', amount: 0.1 })).status).toBe(200);
    const state = await desk.getSandboxState();
    // 1000 - 30 x 0.1 in floats is 996.9999999999964; the books say 997.
    expect(state.ok && state.value.users.find((u) => u.userId === 'u-d')?.balance).toBe(997);
    const win = await post('/platform/results', {
      result: 'WIN',
      userId: 'u-d',
      depositId: 'd-0',
      roomId: 'r',
      gameId: 'blocks',
      currency: 'USD',
      amount: 0.2,
    });
    expect(json(win)).toMatchObject({ balance: 997.2 });
  });

  it('refuses a balance with a fraction on an integer profile, and keeps integer minor units exact', async () => {
    const { desk, post } = await sandbox('integer');
    const bad = await desk.setSandboxBalance('u-i', 10.5);
    expect(!bad.ok && bad.error.message).toContain('minor units');
    const badStart = await desk.setSandboxStartingBalance(0.5);
    expect(!badStart.ok && badStart.error.message).toMatch(/minor units/);
    expect((await desk.setSandboxBalance('u-i', 5000)).ok).toBe(true);
    await post('/platform/pay', { userId: 'u-i', depositId: 'i-1', currency: 'USD', amount: 1234 });
    const state = await desk.getSandboxState();
    expect(state.ok && state.value.users.find((u) => u.userId === 'u-i')?.balance).toBe(3766);
  });
});

describe('section 3: a REFUND of a depositId never stored', () => {
  it.each([
    ['everything else missing', { result: 'REFUND', depositId: 'never-1' }],
    ['a wrong amount type and no userId', { result: 'REFUND', depositId: 'never-2', amount: 'ten', roomId: null, gameId: null }],
    ['an unknown game', { result: 'REFUND', userId: 'u', depositId: 'never-3', roomId: 'r', gameId: 'chess', currency: 'USD', amount: 5 }],
  ])('is ignored with 200 (%s), and the findings name what is missing', async (_name, body) => {
    const { desk, post } = await sandbox();
    const reply = await post('/platform/results', body);
    expect(reply.status).toBe(200);
    expect(json(reply)).toEqual({ status: 'ignored', depositId: body.depositId, result: 'REFUND' });
    const [captured] = await captures(desk);
    const detail = await exchangeOf(desk, captured!.id);
    expect(detail.findings.some((f) => f.message.includes('ignored and answered 200'))).toBe(true);
    expect(detail.findings.some((f) => f.level === 'error')).toBe(true);
  });

  it('still refuses a REFUND without a depositId (nothing to look up) and one of a stored deposit that breaks the spec', async () => {
    const { post } = await sandbox();
    expect((await post('/platform/results', { result: 'REFUND' })).status).toBe(400);
    await post('/platform/pay', { userId: 'u', depositId: 'stored-1', currency: 'USD', amount: 5 });
    expect((await post('/platform/results', { result: 'REFUND', depositId: 'stored-1' })).status).toBe(400);
  });
});
