// A balance probe's credentials are secrets in every form: the token without its scheme, Basic's user,
// password and the base64 of user:password, a key in the balance URL's query. None is stored, exported
// or printed in clear, and a probe that echoes its Authorization header into the balance is quoted only
// after redaction.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { sign } from '../../src-main/core/signing';
import { runCli } from '../helpers/cli';
import { openDesk } from '../helpers/desk';
import { must } from '../helpers/must';
import { rawRoundTrip } from '../helpers/raw-socket';
import { startRecorder } from '../helpers/servers';
import { closeAfterTest } from '../helpers/closing';
import { tempDir } from '../helpers/temp';
import { latest, startProxy } from '../integration/proxy/helpers';
import { filePlaces, leaks } from './helpers/canary';

const SIGNING = 'probe-cred-signing-4c1e9a';
const TOKEN = 'probe-tok-Vb7Nm2Qx9Lk4Rz';
const USER = 'probe-usr-Ee3Tt8';
const PASSWORD = 'probe-pwd-Yh6Uj1Ik5';
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
const QUERY_KEY = 'probe-qkey-Pa9Sd2Fg';
const PARTS = [TOKEN, USER, PASSWORD, BASIC];

/** A probe endpoint with a bug: it answers the Authorization header it got as the balance. */
function echoingProbe(req: IncomingMessage, _body: Buffer, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ balance: req.headers.authorization ?? '' }));
}

async function deskWithProbe(headers: Array<[string, string]>, home = tempDir()) {
  const probe = closeAfterTest(await startRecorder(echoingProbe));
  const desk = openDesk(home);
  must(
    await desk.saveProfile({
      name: 'p',
      secret: SIGNING,
      balanceUrl: `${probe.url}/balance/{userId}?key=${QUERY_KEY}`,
      balancePath: '$.balance',
      balanceHeaders: headers,
    }),
  );
  must(await desk.useProfile('p'));
  return { desk, probe, home };
}

describe("a balance probe's credentials", () => {
  it('echoed by the probe into the balance, are quoted redacted, never their first characters', async () => {
    for (const header of [`Bearer ${TOKEN}`, `Basic ${BASIC}`]) {
      const { desk, probe } = await deskWithProbe([['Authorization', header]]);
      const reading = must(await desk.readBalance('alice'));
      expect(probe.received[0]!.headers.authorization).toBe(header);
      const text = JSON.stringify(reading);
      expect(text).toMatch(/redacted sha256:[0-9a-f]{8}/);
      for (const part of PARTS) expect(text).not.toContain(part.slice(0, 10));
      expect(text).not.toContain(QUERY_KEY);
    }
  });

  it('sent inside a callback, alone or encoded, are redacted from the row, show, HAR, cURL and the ticket', async () => {
    const { desk, home } = await deskWithProbe([
      ['Authorization', `Bearer ${TOKEN}`],
      ['X-Staging-Auth', `Basic ${BASIC}`],
    ]);
    const { port } = await startProxy(desk);
    const body = JSON.stringify({
      userId: 'u-1',
      depositId: 'dep-probe',
      currency: 'USD',
      amount: 1,
      note: `${TOKEN} ${Buffer.from(PASSWORD).toString('base64')} ${USER} ${QUERY_KEY}`,
    });
    await rawRoundTrip(
      port,
      `POST /platform/pay?t=${TOKEN} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nX-Server-Authorization: ${sign(Buffer.from(body), SIGNING)}\r\nX-Fwd-Token: ${TOKEN}\r\nX-Fwd-Basic: ${BASIC}\r\nX-Fwd-Pass: ${PASSWORD}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    const row = await latest(desk);
    const places = [
      { label: 'show', bytes: JSON.stringify(must(await desk.getExchange(row.id))) },
      { label: 'HAR', bytes: must(await desk.exportHar({})) },
      { label: 'cURL', bytes: must(await desk.curlFor(row.id)) },
      { label: 'ticket', bytes: must(await desk.ticketBundle('dep-probe')) },
    ];
    expect(leaks(places, [...PARTS, QUERY_KEY])).toEqual([]);
    await desk.close();
    // The balance URL's query value too: the profile's row holds it sealed (balance-url-sealed.test.ts).
    expect(leaks(filePlaces(home), [...PARTS, QUERY_KEY])).toEqual([]);
  });

  it('`profile set` and `profile list` print the balance URL with its query values masked', async () => {
    const home = tempDir();
    const set = await runCli([
      '--home',
      home,
      'profile',
      'set',
      'p',
      '--balance-url',
      `http://127.0.0.1:9/b/{userId}?key=${QUERY_KEY}&user={userId}`,
      '--balance-path',
      '$.b',
    ]);
    expect(set.code, set.stderr).toBe(0);
    const list = await runCli(['--home', home, 'profile', 'list']);
    const json = await runCli(['--home', home, 'profile', 'list', '--json']);
    for (const out of [set, list, json]) {
      expect(out.stdout + out.stderr).not.toContain(QUERY_KEY);
      expect(out.stdout).toContain('?key=***&user={userId}');
    }
  });
});
