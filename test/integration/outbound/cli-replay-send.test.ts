// replay and send through the real CLI (a child process), against a stand-in operator that
// verifies signatures over the raw bytes it receives.
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { runCli } from '../../helpers/cli';
import { startOperator, type StandInOperator } from '../../helpers/operator';
import { tempDir } from '../../helpers/temp';
import { closeAfterTest } from '../../helpers/closing';
import { capture } from '../../helpers/captures';

const SECRET = 'cli-replay-secret';
let operator: StandInOperator | undefined;

/** A data directory with a profile pointing at a fresh stand-in operator, and captures in it. */
async function home(bodies: Array<[path: string, body: string]> = []): Promise<{ dir: string; ids: number[]; operator: StandInOperator }> {
  operator = closeAfterTest(await startOperator({ secret: SECRET }));
  const dir = tempDir();
  const desk = createDesk({ home: dir });
  try {
    await desk.saveProfile({ name: 'staging', secret: SECRET, operatorUrl: operator.url });
    const ids: number[] = [];
    for (const [path, body] of bodies) ids.push(await capture(desk, { path, body, signature: { secret: 'the-platform-secret' } }));
    return { dir, ids, operator };
  } finally {
    await desk.close();
  }
}

const pay = { userId: 'cli-user', depositId: 'd-cli-1', currency: 'USD', amount: 4 };
const refund = { result: 'REFUND', userId: 'cli-user', depositId: 'd-cli-1', roomId: null, gameId: null, currency: 'USD', amount: 4 };

describe('wager-desk replay', () => {
  it('replays a captured refund with --set amount, re-signed, in one command that verifies at the operator', async () => {
    const { dir, ids, operator } = await home([
      ['/platform/pay', JSON.stringify(pay)],
      ['/platform/results', JSON.stringify(refund)],
    ]);
    // The operator needs the pay first, so the refund is not an unknown one.
    expect((await runCli(['--home', dir, 'replay', String(ids[0])])).code).toBe(0);
    const res = await runCli(['--home', dir, 'replay', String(ids[1]), '--set', 'amount=2.5']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`(from exchange ${ids[1]})`);
    expect(res.stdout).toContain('answer: 200');
    const got = operator.requests[1]!;
    expect(got.rawSignatureValid).toBe(true);
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body.toString())).toEqual({ ...refund, amount: 2.5 });
    expect(operator.balances.get('cli-user')).toBe(100_000 - 4 + 4); // the operator refunds what it stored
  });

  it('sends the REFUND follow-up of a captured pay with --follow-up, and prints the exchange as JSON', async () => {
    const { dir, ids, operator } = await home([['/platform/pay', JSON.stringify(pay)]]);
    await runCli(['--home', dir, 'replay', String(ids[0])]);
    const res = await runCli(['--home', dir, 'replay', String(ids[0]), '--follow-up', 'refund', '--json']);
    expect(res.code).toBe(0);
    const x = JSON.parse(res.stdout) as { sourceId: number; origin: string; request: { path: string }; response: { status: number } };
    expect(x).toMatchObject({ sourceId: ids[0], origin: 'replay', request: { path: '/platform/results' }, response: { status: 200 } });
    expect(JSON.parse(operator.requests[1]!.body.toString())).toMatchObject({ result: 'REFUND', depositId: 'd-cli-1', amount: 4 });
    expect(operator.requests[1]!.rawSignatureValid).toBe(true);
  });

  it('refuses an id or a follow-up it cannot use, before anything is sent', async () => {
    const { dir, ids, operator } = await home([['/platform/pay', JSON.stringify(pay)]]);
    for (const args of [
      ['replay', 'abc'],
      ['replay', '0'],
      ['replay', String(ids[0]), '--follow-up', 'maybe'],
    ]) {
      const r = await runCli(['--home', dir, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect((await runCli(['--home', dir, 'replay', String(ids[0]), '--follow-up', 'maybe'])).stderr).toContain('expected one of WIN, DRAW, LOSE, REFUND');
    expect(operator.requests).toHaveLength(0);
  });

  it('signs with a custom secret from the environment and honours --signature none', async () => {
    const { dir, ids, operator } = await home([['/platform/pay', JSON.stringify(pay)]]);
    const custom = await runCli(['--home', dir, 'replay', String(ids[0]), '--secret-env', 'WD_OTHER'], { env: { WD_OTHER: 'not-the-operator-secret' } });
    expect(custom.code).toBe(0);
    expect(operator.requests[0]!.status).toBe(401);
    const none = await runCli(['--home', dir, 'replay', String(ids[0]), '--signature', 'none']);
    expect(none.code).toBe(0);
    expect(operator.requests[1]!.headers['x-server-authorization']).toBeUndefined();
  });

  it('exits 1 without an HTTP answer and 2 on usage errors', async () => {
    const { dir, ids } = await home([['/platform/pay', JSON.stringify(pay)]]);
    const closed = operator!.url;
    await operator!.close();
    operator = undefined;
    const refused = await runCli(['--home', dir, 'replay', String(ids[0]), '--to', closed]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Connection refused');
    const badMode = await runCli(['--home', dir, 'replay', String(ids[0]), '--signature', 'sometimes']);
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toContain('--signature sometimes');
    const noEnv = await runCli(['--home', dir, 'replay', String(ids[0]), '--secret-env', 'WD_UNSET_VARIABLE']);
    expect(noEnv.code).toBe(2);
    const missing = await runCli(['--home', dir, 'replay', '999']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No exchange with id 999');
  });
});

describe('wager-desk send', () => {
  it('builds a pay from the template with fresh ids and overrides, and sends it signed', async () => {
    const { dir, operator } = await home();
    const res = await runCli([
      '--home',
      dir,
      'send',
      'pay',
      '--to',
      operator.url,
      '--user-id',
      'u-send',
      '--set',
      'amount=3',
      '--set',
      'currency=EUR',
      '--json',
    ]);
    expect(res.code).toBe(0);
    const x = JSON.parse(res.stdout) as { origin: string; kind: string; depositId: string; response: { status: number } };
    expect(x).toMatchObject({ origin: 'send', kind: 'pay', response: { status: 200 } });
    const got = JSON.parse(operator.requests[0]!.body.toString()) as Record<string, unknown>;
    expect(got).toMatchObject({ userId: 'u-send', amount: 3, currency: 'EUR' });
    expect(got.depositId).toBe(x.depositId);
    expect(String(got.depositId)).toMatch(/^wd-[0-9a-f]{32}$/);
    expect(operator.requests[0]!.rawSignatureValid).toBe(true);
  });

  it('sends a body file as raw bytes, signed over those bytes', async () => {
    const { dir, operator } = await home();
    const raw = '{\n  "userId": "u-file",\n  "depositId": "d-file",\n  "currency": "\\u0055SD",\n  "amount": 1.50\n}\n';
    const res = await runCli(['--home', dir, 'send', 'pay', '--body-file', '-'], { input: raw });
    expect(res.code).toBe(0);
    expect(operator.requests[0]!.body.toString()).toBe(raw);
    expect(operator.requests[0]!.status).toBe(200);
  });
});
