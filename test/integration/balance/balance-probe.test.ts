// The balance probe against a stand-in operator's staging endpoint for test users (written the way
// such endpoints are: a GET per user behind a header credential, 404 for a user it does not know):
// exact readings in minor and major units, {userId} in the URL and the path, the credential sealed
// in the database and redacted from what the desk records, and every failure an 'unavailable' with
// its reason, never a number.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { buildBalanceObserver } from '../../../src-main/core/balance';
import type { ProfileSecrets } from '../../../src-main/core/store/contract/profiles';
import type { BalanceProbeResult } from '../../../src-main/shared/model';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { startRecorder, type Recorder } from '../../helpers/servers';
import { tempDir } from '../../helpers/temp';
import { closeAfterTest } from '../../helpers/closing';
import { filePlaces, leaks } from '../../security/helpers/canary';

const CREDENTIAL = 'staging-token-5f1c9a77e2';
const BALANCES_MINOR: Record<string, unknown> = { alice: 1050, 'bob/x y': 99_900, odd: 'n/a' };

function answer(req: IncomingMessage, _body: Buffer, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://operator');
  if (req.headers['x-staging-token'] !== CREDENTIAL) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"UNAUTHORIZED"}');
    return;
  }
  const minor = /^\/test\/balance\/(.+)$/.exec(url.pathname);
  if (minor) {
    const user = decodeURIComponent(minor[1]!);
    if (!(user in BALANCES_MINOR)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"code":"USER_NOT_FOUND"}]}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { userId: user, balance: BALANCES_MINOR[user] } }));
    return;
  }
  if (url.pathname === '/test/balances') {
    // Major units, as strings, keyed by user: what a decimal ledger's admin route answers.
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"balances":{"alice":"10.50","carol":"0.07"}}');
    return;
  }
  res.writeHead(404).end();
}

async function stagingOperator(): Promise<Recorder> {
  const server = await startRecorder(answer);
  return closeAfterTest(server);
}

const read = async (desk: ReturnType<typeof openDesk>, user: string, profile?: string): Promise<BalanceProbeResult> =>
  must(await desk.readBalance(user, profile));

describe('balance probe', () => {
  it('reads a balance exactly in minor units, with {userId} URL-encoded and the header credential sent', async () => {
    const op = await stagingOperator();
    const desk = openDesk();
    must(
      await desk.saveProfile({
        name: 'staging',
        secret: 'signing-secret-1',
        balanceUrl: `${op.url}/test/balance/{userId}`,
        balancePath: '$.data.balance',
        balanceHeaders: [['X-Staging-Token', CREDENTIAL]],
      }),
    );
    expect(await read(desk, 'alice')).toEqual({
      profile: 'staging',
      userId: 'alice',
      amounts: 'integer',
      evidence: { kind: 'reading', value: '1050', source: 'probe' },
    });
    expect((await read(desk, 'bob/x y')).evidence).toEqual({ kind: 'reading', value: '99900', source: 'probe' });
    expect(op.received.map((r) => r.url)).toEqual(['/test/balance/alice', '/test/balance/bob%2Fx%20y']);
    expect(op.received.every((r) => r.method === 'GET' && r.headers['x-staging-token'] === CREDENTIAL)).toBe(true);

    // The same readings on a decimal profile: 10.5, never a float's 10.499999.
    must(await desk.saveProfile({ name: 'staging', amounts: 'decimal', balanceUnits: 'minor' }));
    expect((await read(desk, 'alice')).evidence).toEqual({ kind: 'reading', value: '10.5', source: 'probe' });
  });

  it('reads major units with {userId} in the JSONPath, converted exactly to the profile amounts', async () => {
    const op = await stagingOperator();
    const desk = openDesk();
    must(
      await desk.saveProfile({
        name: 'ledger',
        balanceUrl: `${op.url}/test/balances`,
        balancePath: '$.balances["{userId}"]',
        balanceUnits: 'major',
        balanceHeaders: [['X-Staging-Token', CREDENTIAL]],
      }),
    );
    expect((await read(desk, 'alice')).evidence).toEqual({ kind: 'reading', value: '1050', source: 'probe' });
    expect((await read(desk, 'carol')).evidence).toEqual({ kind: 'reading', value: '7', source: 'probe' });
    must(await desk.saveProfile({ name: 'ledger', amounts: 'decimal' }));
    expect((await read(desk, 'alice')).evidence).toEqual({ kind: 'reading', value: '10.5', source: 'probe' });
    expect((await read(desk, 'carol')).evidence).toEqual({ kind: 'reading', value: '0.07', source: 'probe' });
  });

  it('says why there is no reading: an unknown user, a value that is not a number, a missing credential, no probe', async () => {
    const op = await stagingOperator();
    const desk = openDesk();
    const profile = { name: 'staging', balanceUrl: `${op.url}/test/balance/{userId}`, balancePath: '$.data.balance' };
    must(await desk.saveProfile({ ...profile, balanceHeaders: [['X-Staging-Token', CREDENTIAL]] }));
    expect((await read(desk, 'nobody')).evidence).toEqual({ kind: 'unavailable', reason: 'the balance probe answered 404 for user "nobody"' });
    expect((await read(desk, 'odd')).evidence).toEqual({ kind: 'unavailable', reason: expect.stringContaining('"n/a" is not a number') });
    must(await desk.saveProfile({ name: 'staging', balancePath: '$.data.wallet' }));
    expect((await read(desk, 'alice')).evidence).toEqual({ kind: 'unavailable', reason: expect.stringContaining('no balance at $.data.wallet') });
    must(await desk.saveProfile({ name: 'staging', balancePath: '$.data.balance', balanceHeaders: null }));
    expect((await read(desk, 'alice')).evidence).toEqual({ kind: 'unavailable', reason: 'the balance probe answered 401 for user "alice"' });
    must(await desk.saveProfile({ name: 'bare', callbackPrefix: '/bare' }));
    expect((await read(desk, 'alice', 'bare')).evidence).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('no balance probe') });
  });

  it('seals the credential: views show it as set with a fingerprint; no file of the data directory holds it in any encoding', async () => {
    const op = await stagingOperator();
    const home = tempDir();
    const desk = openDesk(home);
    const view = must(
      await desk.saveProfile({
        name: 'staging',
        secret: 'signing-secret-1',
        operatorUrl: op.url,
        balanceUrl: `${op.url}/test/balance/{userId}`,
        balancePath: '$.data.balance',
        balanceHeaders: [['X-Staging-Token', CREDENTIAL]],
      }),
    );
    expect(view.balance.headers).toEqual([{ name: 'X-Staging-Token', value: { set: true, fingerprint: expect.stringMatching(/^[0-9a-f]{8}$/) } }]);
    expect(JSON.stringify(must(await desk.listProfiles()))).not.toContain(CREDENTIAL);
    must(await desk.duplicateProfile('staging', 'copy'));
    expect((await read(desk, 'alice', 'copy')).evidence).toEqual({ kind: 'reading', value: '1050', source: 'probe' });
    // A callback that carries the credential (a header copied by hand) is recorded with it redacted.
    const sent = must(
      await desk.send({
        draft: {
          method: 'POST',
          path: '/platform/pay',
          headers: [['X-Staging-Token', CREDENTIAL]],
          bodyBase64: Buffer.from('{}').toString('base64'),
          sourceId: null,
        },
      }),
    );
    expect(JSON.stringify(must(await desk.getExchange(sent.id)))).not.toContain(CREDENTIAL);
    expect(must(await desk.exportHar({}))).not.toContain(CREDENTIAL);
    await desk.close();
    expect(leaks(filePlaces(home), [CREDENTIAL])).toEqual([]);
  });

  it('refuses a probe it could not send, and never quotes a header line', async () => {
    const desk = openDesk();
    const refused = await desk.saveProfile({ name: 'p', balanceUrl: 'ftp://op.example/{userId}' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    const badPath = await desk.saveProfile({ name: 'p', balancePath: '$.data[' });
    expect(badPath).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    const badHeader = await desk.saveProfile({ name: 'p', balanceHeaders: [['X-Token', `${CREDENTIAL}\r\nX-Other: 1`]] });
    expect(badHeader.ok).toBe(false);
    expect(JSON.stringify(badHeader)).not.toContain(CREDENTIAL);
  });

  it('reads the balance an answer carries at the answer path, exactly; null where the answer has none', () => {
    const profile: ProfileSecrets = {
      name: 'answers',
      operatorUrl: null,
      baseUrl: null,
      operatorId: null,
      upstream: null,
      production: false,
      allowSelfSigned: false,
      currency: 'USD',
      callbackPrefix: '/platform',
      amounts: 'decimal',
      secret: null,
      previousSecret: null,
      apiKey: null,
      balance: { url: null, path: null, units: 'minor', headers: [], answerPath: '$.balance' },
    };
    const observer = buildBalanceObserver(profile, { timeoutMs: 1000 });
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(observer.available).toBe(true);
    expect(observer.fromAnswer(bytes('{"status":"OK","balance":99850}'))).toEqual({ kind: 'reading', value: '998.5', source: 'answer' });
    expect(observer.fromAnswer(bytes('{"status":"OK"}'))).toBeNull();
    expect(observer.fromAnswer(bytes('not json'))).toBeNull();
    expect(observer.fromAnswer(bytes('{"balance":"lots"}'))).toMatchObject({ kind: 'unavailable' });
    const none = buildBalanceObserver({ ...profile, balance: { url: null, path: null, units: null, headers: [], answerPath: null } }, { timeoutMs: 1000 });
    expect(none.available).toBe(false);
    expect(none.howToObserve).toContain('profile set answers --balance-url');
    expect(none.fromAnswer(bytes('{"balance":1}'))).toBeNull();
  });
});
