// A profile whose operator mounts its callbacks under its own prefix (/acme): captures there are
// callbacks, follow-ups and templates go there, and the composer judges amounts as the profile writes
// them. The operator is a stand-in written the way real ones are (integer minor units, VARCHAR(36)).
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import { sign } from '../../../src-main/core/signing';
import type { Draft } from '../../../src-main/shared/model';
import { runCli } from '../../helpers/cli';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk, logOf } from '../../helpers/desk';
import { startIntegerOperator } from '../../helpers/integer-operator';
import { tempDir } from '../../helpers/temp';
import { exchangeOf, exchangesOf } from '../../helpers/log-reads';

const SECRET = 'acme-prefix-secret';
const USER = 'acme-user';

function post(url: string, body: string, secret = SECRET): Promise<number> {
  const bytes = Buffer.from(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(bytes.length), 'x-server-authorization': sign(bytes, secret) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

async function acmeDesk(home?: string): Promise<Desk> {
  const desk = openDesk(home);
  must(await desk.saveProfile({ name: 'acme', secret: SECRET, callbackPrefix: '/acme' }));
  return desk;
}

describe('the callback prefix of a profile', () => {
  it('judges a capture at <prefix>/pay as a pay with findings and a deposit timeline; a pay elsewhere names the expected prefix', async () => {
    const op = closeAfterTest(await startIntegerOperator({ secret: SECRET, prefix: '/acme', users: { [USER]: 10_000 } }));
    const desk = await acmeDesk();
    const proxy = must(await desk.startProxy({ port: 0, host: '127.0.0.1', upstream: op.url })).proxy.url!;

    const payBody = JSON.stringify({ userId: USER, depositId: 'acme-dep-1', currency: 'USD', amount: 250, channel: 'mobile' });
    expect(await post(`${proxy}/acme/pay`, payBody)).toBe(200);
    const captured = (await exchangesOf(desk, { direction: 'inbound' }))[0]!;
    expect(captured).toMatchObject({ kind: 'pay', path: '/acme/pay', depositId: 'acme-dep-1' });
    const detail = await exchangeOf(desk, captured.id);
    expect(detail.findings.some((f) => f.path === '$.channel')).toBe(true);
    expect((await logOf(desk).timeline('acme-dep-1')).entries.map((e) => e.id)).toContain(captured.id);

    // A fraction on an integer profile is an error finding.
    await post(`${proxy}/acme/pay`, JSON.stringify({ userId: USER, depositId: 'acme-dep-2', currency: 'USD', amount: 2.5 }));
    const fraction = await exchangeOf(desk, (await exchangesOf(desk, { direction: 'inbound' }))[0]!.id);
    expect(fraction.findings.some((f) => f.level === 'error' && f.path === '$.amount' && f.message.includes('integers in minor units'))).toBe(true);

    // The spec's spelling under a profile that expects /acme: still a pay, with a finding that says so.
    await post(`${proxy}/platform/pay`, JSON.stringify({ userId: USER, depositId: 'acme-dep-3', currency: 'USD', amount: 100 }));
    const elsewhere = await exchangeOf(desk, (await exchangesOf(desk, { direction: 'inbound' }))[0]!.id);
    expect(elsewhere.kind).toBe('pay');
    expect(elsewhere.findings.some((f) => f.level === 'info' && f.message.includes('/acme/pay'))).toBe(true);
  });

  it('imports a HAR entry at <prefix>/pay as a pay', async () => {
    const desk = await acmeDesk();
    const body = JSON.stringify({ userId: USER, depositId: 'har-dep-1', currency: 'USD', amount: 100 });
    const har = {
      log: {
        creator: { name: 'test' },
        entries: [
          {
            startedDateTime: '2026-01-02T03:04:05.000Z',
            request: {
              method: 'POST',
              url: 'https://op.example/acme/pay',
              headers: [{ name: 'x-server-authorization', value: sign(Buffer.from(body), SECRET) }],
              postData: { text: body },
            },
            response: { status: 200, headers: [], content: { text: '{}' } },
          },
        ],
      },
    };
    const result = must(await desk.importHar(JSON.stringify(har), {}));
    expect(await logOf(desk).get(result.ids[0]!)).toMatchObject({ kind: 'pay', depositId: 'har-dep-1', signature: { verdict: 'valid' } });
  });

  it('replay ID --follow-up REFUND posts to <prefix>/results', async () => {
    const op = closeAfterTest(await startIntegerOperator({ secret: SECRET, prefix: '/acme', users: { [USER]: 10_000 } }));
    const home = tempDir();
    const desk = await acmeDesk(home);
    must(await desk.saveProfile({ name: 'acme', operatorUrl: op.url }));
    const proxy = must(await desk.startProxy({ port: 0, host: '127.0.0.1', upstream: op.url })).proxy.url!;
    expect(await post(`${proxy}/acme/pay`, JSON.stringify({ userId: USER, depositId: 'acme-refund-1', currency: 'USD', amount: 300 }))).toBe(200);
    const payId = (await exchangesOf(desk, { direction: 'inbound' }))[0]!.id;
    await desk.close();

    const res = await runCli(['--home', home, 'replay', String(payId), '--follow-up', 'REFUND', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const last = op.requests[op.requests.length - 1]!;
    expect(last).toMatchObject({ method: 'POST', path: '/acme/results', status: 200 });
    expect(JSON.parse(last.body)).toMatchObject({ result: 'REFUND', depositId: 'acme-refund-1', amount: 300 });
    expect(op.balances.get(USER)).toBe(10_000);
  });

  it('builds templates under the prefix with the profile amounts, and --callback-prefix wins for one send', async () => {
    const op = closeAfterTest(await startIntegerOperator({ secret: SECRET, prefix: '/api/v2/acme', users: { [USER]: 10_000 } }));
    const desk = await acmeDesk();
    const pay = must(await desk.draftTemplate('pay', USER));
    expect(pay.path).toBe('/acme/pay');
    const body = JSON.parse(Buffer.from(pay.bodyBase64, 'base64').toString()) as { amount: number; depositId: string };
    expect(body.amount).toBe(100);
    expect(body.depositId.length).toBeLessThanOrEqual(36);
    expect(must(await desk.draftTemplate('refund', USER)).path).toBe('/acme/results');
    expect(must(await desk.draftTemplate('win', USER, { callbackPrefix: '/api/v2/acme' })).path).toBe('/api/v2/acme/results');

    must(await desk.saveProfile({ name: 'acme', amounts: 'decimal' }));
    const decimal = JSON.parse(Buffer.from(must(await desk.draftTemplate('win', USER)).bodyBase64, 'base64').toString()) as { amount: number };
    expect(decimal.amount).toBe(1.5);

    must(await desk.saveProfile({ name: 'acme', amounts: 'integer' }));
    const home = must(await desk.getStatus()).dataDir;
    await desk.close();
    const sent = await runCli(['--home', home, 'send', 'pay', '--to', op.url, '--user-id', USER, '--callback-prefix', '/api/v2/acme', '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(op.requests[0]).toMatchObject({ path: '/api/v2/acme/pay', status: 200 });
  });

  it('the composer finds a fraction an error on an integer profile, not on a decimal one', async () => {
    const desk = await acmeDesk();
    const draft: Draft = {
      method: 'POST',
      path: '/acme/pay',
      headers: [],
      bodyBase64: Buffer.from(JSON.stringify({ userId: USER, depositId: 'd-1', currency: 'USD', amount: 7.5 })).toString('base64'),
      sourceId: null,
    };
    const onInteger = must(await desk.inspectDraft(draft));
    expect(onInteger.filter((f) => f.level === 'error').map((f) => f.path)).toEqual(['$.amount']);
    expect(must(await desk.inspectDraft({ ...draft, path: '/platform/pay' })).some((f) => f.level === 'info' && f.message.includes('/acme/pay'))).toBe(true);
    must(await desk.saveProfile({ name: 'acme', amounts: 'decimal' }));
    expect(must(await desk.inspectDraft(draft)).filter((f) => f.level === 'error')).toEqual([]);
    const zero = { ...draft, bodyBase64: Buffer.from(JSON.stringify({ userId: USER, depositId: 'd-1', currency: 'USD', amount: 0 })).toString('base64') };
    expect(must(await desk.inspectDraft(zero)).some((f) => f.level === 'error' && f.path === '$.amount')).toBe(true);
  });
});
