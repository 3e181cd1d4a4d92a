// A balance endpoint that signs its reads: it answers only a GET whose X-Signature is the HMAC-SHA256
// (base64) of "GET /ledger <userId>" under a key it shares with the desk, and it answers a ledger of
// several currencies that a JSONPath filter picks the balance from. The key is sealed: no file of the
// data directory, no view, no CLI output and no export holds it in any encoding.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { runCli } from '../../helpers/cli';
import { startRecorder } from '../../helpers/servers';
import { tempDir } from '../../helpers/temp';
import { closeAfterTest } from '../../helpers/closing';
import { filePlaces, leaks } from '../../security/helpers/canary';

const KEY = 'ledger-signing-key-8d41c0e6';
const USD_PATH = '$.account.balances[?(@.currency=="USD")].available';
const LEDGERS: Record<string, Array<{ currency: string; available: number | string }>> = {
  alice: [
    { currency: 'EUR', available: 700 },
    { currency: 'USD', available: 1050 },
  ],
  'bob "q" [*]': [{ currency: 'USD', available: 20 }],
};

const signatureFor = (key: string, userId: string) => createHmac('sha256', key).update(`GET /ledger ${userId}`).digest('base64');

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function answer(req: IncomingMessage, _body: Buffer, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://operator');
  const user = url.searchParams.get('user') ?? '';
  const signature = req.headers['x-signature'];
  const signedFor = req.headers['x-user'];
  if (url.pathname !== '/ledger' || typeof signature !== 'string' || signedFor !== user || !sameText(signature, signatureFor(KEY, user))) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"BAD_SIGNATURE"}');
    return;
  }
  const ledger = LEDGERS[user];
  if (!ledger) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"USER_NOT_FOUND"}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ account: { user, balances: ledger } }));
}

async function signedLedger() {
  return closeAfterTest(await startRecorder(answer));
}

describe('a balance probe that signs its reads', () => {
  it('sends the per-user HMAC, reads the filtered balance, and keeps the key sealed', async () => {
    const ledger = await signedLedger();
    const home = tempDir();
    const desk = openDesk(home);
    const profile = must(
      await desk.saveProfile({
        name: 'signed',
        secret: 'signed-profile-secret',
        balanceUrl: `${ledger.url}/ledger?user={userId}`,
        balancePath: USD_PATH,
        balanceHeaders: [
          ['X-User', '{userId}'],
          ['X-Signature', '{hmac-sha256-base64:GET /ledger {userId}}'],
        ],
        balanceHmacKey: KEY,
      }),
    );
    expect(profile.balance.hmacKey).toMatchObject({ set: true });
    expect(profile.balance.headers.map((h) => h.name)).toEqual(['X-User', 'X-Signature']);

    const alice = must(await desk.readBalance('alice', 'signed'));
    expect(alice.evidence).toEqual({ kind: 'reading', value: '1050', source: 'probe' });
    expect(ledger.received[0]!.headers['x-signature']).toBe(signatureFor(KEY, 'alice'));
    expect(ledger.received[0]!.headers['x-user']).toBe('alice');
    // An id with quotes, brackets and a wildcard is signed and sent as it is, and filtered as a value.
    const bob = must(await desk.readBalance('bob "q" [*]', 'signed'));
    expect(bob.evidence).toEqual({ kind: 'reading', value: '20', source: 'probe' });

    // New headers keep the stored key; another key is refused by the endpoint, and says so.
    must(
      await desk.saveProfile({
        name: 'signed',
        balanceHeaders: [
          ['X-Signature', '{hmac-sha256-base64:GET /ledger {userId}}'],
          ['X-User', '{userId}'],
        ],
      }),
    );
    expect(must(await desk.readBalance('alice', 'signed')).evidence).toMatchObject({ kind: 'reading', value: '1050' });
    must(await desk.saveProfile({ name: 'signed', balanceHmacKey: 'another-key' }));
    expect(must(await desk.readBalance('alice', 'signed')).evidence).toEqual({
      kind: 'unavailable',
      reason: 'the balance probe answered 401 for user "alice"',
    });
    must(await desk.saveProfile({ name: 'signed', balanceHmacKey: null }));
    expect(must(await desk.readBalance('alice', 'signed')).evidence).toEqual({
      kind: 'unavailable',
      reason: 'the balance header X-Signature is signed, and no signing key is set: profile set signed --balance-hmac-key-env VAR',
    });
    must(await desk.saveProfile({ name: 'signed', balanceHmacKey: KEY }));

    // Views show set + fingerprint; a callback carrying the key is recorded and exported redacted.
    expect(JSON.stringify(must(await desk.listProfiles()))).not.toContain(KEY);
    const sent = must(
      await desk.send({
        draft: {
          method: 'POST',
          path: '/platform/pay',
          headers: [['X-Copied', KEY]],
          bodyBase64: Buffer.from(`{"note":"${KEY}"}`).toString('base64'),
          sourceId: null,
        },
        to: ledger.url,
      }),
    );
    const places = [
      { label: 'exchange', bytes: JSON.stringify(must(await desk.getExchange(sent.id))) },
      { label: 'har', bytes: must(await desk.exportHar({ direction: 'all' })) },
      { label: 'curl', bytes: must(await desk.curlFor(sent.id)) },
    ];
    await desk.close();
    expect(leaks([...places, ...filePlaces(home)], [KEY])).toEqual([]);
  });

  it('is set and read from the CLI, which never prints the key', { timeout: 180_000 }, async () => {
    const ledger = await signedLedger();
    const home = tempDir();
    const env = { LEDGER_KEY: KEY };
    const set = await runCli(
      [
        '--home',
        home,
        'profile',
        'set',
        'cli',
        '--balance-url',
        `${ledger.url}/ledger?user={userId}`,
        '--balance-path',
        USD_PATH,
        '--balance-header',
        'X-User: {userId}',
        '--balance-header',
        'X-Signature: {hmac-sha256-base64:GET /ledger {userId}}',
        '--balance-hmac-key-env',
        'LEDGER_KEY',
      ],
      { env },
    );
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    const read = await runCli(['--home', home, 'balance', '--user-id', 'alice', '--profile', 'cli', '--json'], { env });
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ evidence: { kind: 'reading', value: '1050' } });
    const list = await runCli(['--home', home, 'profile', 'list'], { env });
    expect(list.stdout).toMatch(/signing key: set \([0-9a-f]+/);
    const listJson = await runCli(['--home', home, 'profile', 'list', '--json'], { env });
    const cleared = await runCli(['--home', home, 'profile', 'set', 'cli', '--no-balance-hmac-key'], { env });
    expect(cleared.code).toBe(0);
    const unsigned = await runCli(['--home', home, 'balance', '--user-id', 'alice', '--profile', 'cli'], { env });
    expect(unsigned.code).toBe(1);
    expect(unsigned.stdout).toContain('no signing key is set');
    const outputs = [set, read, list, listJson, cleared, unsigned].flatMap((r, i) => [
      { label: `stdout ${i}`, bytes: r.stdout },
      { label: `stderr ${i}`, bytes: r.stderr },
    ]);
    expect(leaks([...outputs, ...filePlaces(home)], [KEY])).toEqual([]);
  });
});
