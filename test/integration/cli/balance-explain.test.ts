// The CLI side of money evidence and refusals: `profile set --balance-*` (a credential from the
// environment, shown as set + fingerprint and never printed), `balance --user-id` (exit 0 with a reading,
// 1 without), and `explain-refusal ID` naming the serializer an operator verifies.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { runCli } from '../../helpers/cli';
import { must } from '../../helpers/must';
import { startRecorder } from '../../helpers/servers';
import { closeAfterTest } from '../../helpers/closing';
import { tempDir } from '../../helpers/temp';
import { expressOperator } from '../refusal/operators';

const CREDENTIAL = 'cli-staging-token-81d0';

describe('balance probe and refusal explainer from the CLI', () => {
  it('sets a probe with a credential from the environment and reads a balance with it', { timeout: 60_000 }, async () => {
    const op = closeAfterTest(
      await startRecorder((req, _body, res) => {
        const known = req.headers.authorization === `Bearer ${CREDENTIAL}` && req.url === '/wallet/u%201';
        res.writeHead(known ? 200 : 404, { 'content-type': 'application/json' }).end(known ? '{"wallet":{"balance":"12.34"}}' : '{}');
      }),
    );
    const home = tempDir();
    const set = await runCli(
      [
        '--home',
        home,
        'profile',
        'set',
        'staging',
        '--balance-url',
        `${op.url}/wallet/{userId}`,
        '--balance-path',
        '$.wallet.balance',
        '--balance-units',
        'major',
        '--balance-header-env',
        'Authorization=STAGING_AUTH',
        '--json',
      ],
      { env: { STAGING_AUTH: `Bearer ${CREDENTIAL}` } },
    );
    expect(set.code).toBe(0);
    expect(set.stdout).not.toContain(CREDENTIAL);
    expect(JSON.parse(set.stdout).balance).toMatchObject({
      url: `${op.url}/wallet/{userId}`,
      units: 'major',
      headers: [{ name: 'Authorization', value: { set: true } }],
    });
    const list = await runCli(['--home', home, 'profile', 'list']);
    expect(list.stdout).toMatch(
      /balance probe: .*\/wallet\/\{userId\}\s+path: \$\.wallet\.balance\s+units: major\s+headers: Authorization: set \([0-9a-f]{8}\)/,
    );

    const read = await runCli(['--home', home, 'balance', '--user-id', 'u 1']);
    expect(read).toMatchObject({ code: 0, stdout: '1234  (minor units; user u 1, profile staging)\n' });
    const unknown = await runCli(['--home', home, 'balance', '--user-id', 'nobody', '--json']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).evidence).toEqual({ kind: 'unavailable', reason: 'the balance probe answered 404 for user "nobody"' });
    expect(`${set.stderr}${list.stdout}${list.stderr}${read.stderr}${unknown.stderr}`).not.toContain(CREDENTIAL);
  });

  it('explain-refusal names compact JSON for an operator that verifies JSON.stringify(req.body)', { timeout: 60_000 }, async () => {
    const secret = 'cli-refusal-secret-19';
    const op = await expressOperator(secret);
    const home = tempDir();
    const desk = createDesk({ home });
    must(await desk.saveProfile({ name: 'op', secret, operatorUrl: op.url }));
    const body = '{"userId": "u-1", "depositId": "d-1", "currency": "EUR", "amount": 100}';
    const refused = must(
      await desk.send({
        draft: { method: 'POST', path: '/platform/pay', headers: [], bodyBase64: Buffer.from(body).toString('base64'), sourceId: null },
        to: op.url,
      }),
    );
    await desk.close();
    expect(refused.response?.status).toBe(401);
    const run = await runCli(['--home', home, 'explain-refusal', String(refused.id)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('The operator verifies a re-serialization of the body (compact JSON, like JSON.stringify(req.body)), not the bytes received');
    expect(run.stdout).toMatch(/#\d+ {2}accepted {2}200 {2}compact-json: /);
    const compact = JSON.stringify(JSON.parse(body));
    expect(op.received.at(-1)).toMatchObject({ body: Buffer.from(compact) });
    expect(op.received.at(-1)!.headers['x-server-authorization']).toBe(createHmac('sha256', secret).update(compact).digest('hex'));
  });
});
