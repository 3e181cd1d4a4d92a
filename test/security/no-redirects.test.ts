// Promise 6: no secret follows a redirect. Replay, send, an edge case, the conformance check, a token
// request, and the proxy in forward mode each meet a server that answers 301, 302, 303, 307 and 308
// pointing at a second server; the second server counts what reaches it, and the count stays zero.
// (The client alone is covered in test/integration/outbound/http-send.test.ts, the token client's
// message in test/integration/token/token.test.ts; this is every feature, every redirect status.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { must } from '../helpers/must';
import { startRecorder, type Recorder } from '../helpers/servers';
import { tempDirForSuite } from '../helpers/temp';
import { send, startProxy } from '../integration/proxy/helpers';
import { exchangesOf } from '../helpers/log-reads';

const SECRET = 'redirect-canary-signing-secret-5f1e';
const API_KEY = 'ak_redirect_canary_0c4b9e2d7a';
const STATUSES = [301, 302, 303, 307, 308] as const;

let home: { dir: string; remove(): void };
let desk: Desk;
let elsewhere: Recorder;
let redirector: Recorder;
/** What the redirector answers, set per round. */
let redirectStatus: number = STATUSES[0];
let sourceId: number;

beforeAll(async () => {
  elsewhere = await startRecorder((_req, _body, res) => res.end('{"status":"ok"}'));
  redirector = await startRecorder((req, _body, res) => res.writeHead(redirectStatus, { location: `${elsewhere.url}${req.url ?? '/'}` }).end());
  home = tempDirForSuite('wager-desk-redirect-');
  desk = createDesk({ home: home.dir });
  const saved = await desk.saveProfile({
    name: 'p',
    secret: SECRET,
    apiKey: API_KEY,
    operatorUrl: redirector.url,
    baseUrl: redirector.url,
    operatorId: 'op-1',
  });
  expect(saved.ok).toBe(true);
  expect((await desk.useProfile('p')).ok).toBe(true);
  // One signed capture to replay, taken by the desk's own proxy (sandbox mode).
  const { url } = await startProxy(desk);
  const body = JSON.stringify({ userId: 'u-1', depositId: 'd-redirect', currency: 'USD', amount: 3 });
  expect((await send(url, { body, headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), SECRET) } })).status).toBe(
    200,
  );
  sourceId = (await exchangesOf(desk, { limit: 1 }))[0]!.id;
});

afterAll(async () => {
  await desk?.close();
  await redirector?.close();
  await elsewhere?.close();
  home?.remove();
});

describe('no secret follows a redirect', () => {
  for (const status of STATUSES) {
    it(`${status}: replay, send, edge case, check, token and forwarding stop at the first server`, { timeout: 30_000 }, async () => {
      redirectStatus = status;
      const hitsBefore = redirector.received.length;

      const replayed = must(await desk.replay({ sourceId }));
      expect(replayed.response?.status).toBe(status);

      const draft = must(await desk.draftTemplate('win', 'u-1'));
      const sent = must(await desk.send({ draft }));
      expect(sent.response?.status).toBe(status);

      const edge = must(await desk.runEdgeCase(must(await desk.listEdgeCases())[0]!.id, {}));
      expect(edge.exchangeIds.length).toBeGreaterThan(0);

      const report = must(await desk.runCheck({ userId: 'u-1' }));
      expect(report.passed).toBe(0);
      expect(report.checks.every((c) => c.actual.status === null || c.actual.status === status)).toBe(true);

      const token = must(await desk.requestToken({ userId: 'u-1', displayName: 'One' }));
      expect(token.status).toBe(status);
      expect(token.token).toBeNull();

      // The proxy relays the upstream's redirect to its caller as it is, and follows nothing itself.
      const forwarding = await startProxy(desk, { upstream: redirector.url });
      const body = JSON.stringify({ userId: 'u-1', depositId: `d-fwd-${status}`, currency: 'USD', amount: 1 });
      const relayed = await send(forwarding.url, { body, headers: { 'x-server-authorization': sign(Buffer.from(body), SECRET) } });
      expect(relayed.status).toBe(status);
      expect(relayed.headers.find(([n]) => n.toLowerCase() === 'location')?.[1]).toBe(`${elsewhere.url}/platform/pay`);
      await startProxy(desk); // back to the sandbox for the next round

      // The redirector saw the signed callbacks and the API key: the secrets were in play...
      const seen = redirector.received.slice(hitsBefore);
      expect(seen.some((r) => r.headers['x-server-authorization'] === sign(Buffer.from(body), SECRET))).toBe(true);
      expect(seen.some((r) => r.headers['x-api-key'] === API_KEY)).toBe(true);
      // ...and nothing reached the second server.
      expect(elsewhere.received).toHaveLength(0);
    });
  }
});
