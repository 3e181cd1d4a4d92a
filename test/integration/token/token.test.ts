import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { fingerprint } from '../../../src-main/core/signing';
import type { TokenRequest, TokenResult } from '../../../src-main/shared/model';
import { tempDir } from '../../helpers/temp';
import { OPERATOR_ID, PLATFORM_KEY, startTokenEndpoint, type TokenEndpoint } from './token-endpoint';
import { exchangeOf } from '../../helpers/log-reads';

const API_KEY = 'ak_test_5f0c9e1d2b3a4c5d';

let endpoint: TokenEndpoint;
let desk: Desk;

beforeEach(async () => {
  endpoint = await startTokenEndpoint(API_KEY);
  desk = createDesk({ home: tempDir(), outboundTimeoutMs: 2000 });
});

afterEach(async () => {
  await desk.close();
  await endpoint.close();
});

async function saveProfile(extra: Record<string, unknown> = {}): Promise<void> {
  const r = await desk.saveProfile({ name: 'staging', baseUrl: endpoint.url, operatorId: OPERATOR_ID, apiKey: API_KEY, ...extra });
  expect(r.ok).toBe(true);
}

async function token(request: Partial<TokenRequest> = {}): Promise<TokenResult> {
  const r = await desk.requestToken({ userId: 'user-42', displayName: 'Ada Tester', ...request });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

describe('token requests', () => {
  it('requests a token with the profile, decodes it, and never calls it valid', async () => {
    await saveProfile();
    const before = Math.floor(Date.now() / 1000);
    const r = await token();
    expect(r.error).toBeNull();
    expect(r.status).toBe(200);
    // What the service received: exactly the documented request.
    const seen = endpoint.seen[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/v0/wager/operator/create-token');
    expect(seen.headers['x-operator-id']).toBe(OPERATOR_ID);
    expect(seen.headers['x-api-key']).toBe(API_KEY);
    expect(seen.body.toString()).toBe('{"userId":"user-42","displayName":"Ada Tester"}');
    // The token is passed through untouched: its HS256 signature still checks with the platform's key.
    const [h, p, s] = r.token!.split('.');
    expect(createHmac('sha256', PLATFORM_KEY).update(`${h}.${p}`).digest('base64url')).toBe(s);
    expect(r.decoded!.header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(r.decoded!.payload).toMatchObject({ sub: 'user-42', name: 'Ada Tester', operatorId: OPERATOR_ID });
    const exp = r.decoded!.payload!.exp as number;
    expect(r.decoded!.dates.exp).toBe(new Date(exp * 1000).toISOString());
    expect(Date.parse(r.decoded!.dates.iat!)).toBeGreaterThanOrEqual(before * 1000);
    expect(r.decoded!.dates.nbf).toBe(r.decoded!.dates.iat);
    expect(r.decoded!.secondsLeft).toBeGreaterThan(3590);
    expect(r.decoded!.secondsLeft).toBeLessThanOrEqual(3600);
    expect(r.decoded!.note).toMatch(/cannot check the token's signature/);
    expect(r.decoded!.note).not.toMatch(/\bvalid\b/i);
    expect(JSON.parse(r.body!).data.token).toBe(r.token);

    // Recorded as an outbound exchange of kind token, with the API key as a fingerprint only.
    const x = await exchangeOf(desk, r.exchangeId);
    expect([x.direction, x.kind, x.origin]).toEqual(['outbound', 'token', 'token']);
    expect(x.target).toBe(`${endpoint.url}/v0/wager/operator/create-token`);
    expect(x.request.headers).toContainEqual(['x-api-key', `[redacted sha256:${fingerprint(API_KEY)}]`]);
    expect(x.request.headers).toContainEqual(['x-operator-id', OPERATOR_ID]);
    expect(x.userId).toBe('user-42');
    expect(x.response?.status).toBe(200);
    expect(x.signature.verdict).toBeNull();
  });

  it('uses explicit values over the profile, and works without any profile', async () => {
    const r = await token({ baseUrl: `${endpoint.url}/`, operatorId: OPERATOR_ID, apiKey: API_KEY });
    expect(r.status).toBe(200);
    expect(r.token).not.toBeNull();
    await saveProfile({ operatorId: 'wrong-operator' });
    const override = await token({ operatorId: OPERATOR_ID });
    expect(override.status).toBe(200);
    expect(endpoint.seen.at(-1)!.headers['x-operator-id']).toBe(OPERATOR_ID);
  });

  it('names what is missing and how to set it', async () => {
    const none = await desk.requestToken({ userId: 'u', displayName: 'n' });
    expect(none.ok ? null : none.error.code).toBe('no-profile');
    expect(none.ok ? '' : none.error.message).toMatch(/base URL.*operator id.*API key.*profile set NAME/);
    await saveProfile({ apiKey: null });
    const noKey = await desk.requestToken({ userId: 'u', displayName: 'n' });
    expect(noKey.ok ? null : noKey.error.code).toBe('bad-input');
    expect(noKey.ok ? '' : noKey.error.message).toContain('the API key (--api-key-env VAR');
    expect(noKey.ok ? '' : noKey.error.message).toContain('wager-desk profile set staging');
    expect(noKey.ok ? '' : noKey.error.message).not.toContain('operator id');
    const noUser = await desk.requestToken({ userId: '', displayName: 'n', apiKey: 'k' });
    expect(noUser.ok ? '' : noUser.error.message).toContain('userId (--user-id)');
    const unknown = await desk.requestToken({ userId: 'u', displayName: 'n', profile: 'nope' });
    expect(unknown.ok ? null : unknown.error.code).toBe('not-found');
    expect(endpoint.seen).toHaveLength(0);
  });

  it('says so when the connection is refused', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await saveProfile({ baseUrl: `http://127.0.0.1:${port}` });
    const r = await token();
    expect(r).toMatchObject({ status: null, token: null, decoded: null, body: null });
    expect(r.error).toMatch(/Connection refused by 127\.0\.0\.1:\d+/);
    expect((await exchangeOf(desk, r.exchangeId)).error).toBe(r.error);
  });

  it('says so when the host name does not resolve', async () => {
    await saveProfile({ baseUrl: 'http://no-such-host.invalid' });
    const r = await token();
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/Host not found: no-such-host\.invalid \(DNS lookup failed/);
  });

  it('says so on a TLS failure (https to a server that speaks plain http)', async () => {
    await saveProfile({ baseUrl: endpoint.url.replace('http:', 'https:') });
    const r = await token();
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/^TLS error with 127\.0\.0\.1:\d+/);
  });

  it('says so on a timeout', async () => {
    await desk.close();
    desk = createDesk({ home: tempDir(), outboundTimeoutMs: 300 });
    await saveProfile();
    endpoint.mode = 'hang';
    const r = await token();
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/within 300 ms \(timeout\)/);
  });

  it('shows the status and body of a non-2XX answer', async () => {
    await saveProfile();
    endpoint.mode = 'server-error';
    const r = await token();
    expect(r.status).toBe(503);
    expect(r.token).toBeNull();
    expect(r.body).toBe('maintenance window, retry later');
    expect(r.error).toBe('The service answered 503 Service Unavailable: maintenance window, retry later');
    const wrongKey = await token({ apiKey: 'not-the-key' });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.error).toContain('bad api key');
  });

  it('says so when the body is not JSON, lacks data.token, or holds a token that does not decode', async () => {
    await saveProfile();
    endpoint.mode = 'not-json';
    const html = await token();
    expect(html.error).toBe('The service answered 200, but its body is not JSON: <html>login</html>');
    endpoint.mode = 'no-token';
    const noToken = await token();
    expect(noToken.token).toBeNull();
    expect(noToken.error).toMatch(/without a token at data\.token/);
    endpoint.mode = 'bad-token';
    const bad = await token();
    expect(bad.token).toBe('abc.%%%.def');
    expect(bad.decoded!.header).toBeNull();
    expect(bad.error).toBe('The token does not decode: the header is not UTF-8 text once decoded; the payload is not base64url.');
    const findings = (await exchangeOf(desk, noToken.exchangeId)).findings;
    expect(findings.some((f) => f.path.startsWith('$.data') && f.level === 'error')).toBe(true);
  });

  it('never follows a redirect: the API key reaches no other origin', async () => {
    const other = await startTokenEndpoint(API_KEY);
    try {
      await saveProfile();
      endpoint.mode = 'redirect';
      endpoint.redirectTo = `${other.url}/v0/wager/operator/create-token`;
      const r = await token();
      expect(r.status).toBe(307);
      expect(r.token).toBeNull();
      expect(r.error).toContain(`a redirect to ${other.url}/v0/wager/operator/create-token`);
      expect(r.error).toContain('never follows a redirect');
      expect(other.seen).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('lists token requests newest first', async () => {
    await saveProfile();
    const first = await token({ userId: 'first' });
    const second = await token({ userId: 'second' });
    const r = await desk.listTokenHistory();
    expect(r.ok && r.value.map((x) => x.id)).toEqual([second.exchangeId, first.exchangeId]);
    expect(r.ok && r.value.map((x) => x.userId)).toEqual(['second', 'first']);
    const one = await desk.listTokenHistory(1);
    expect(one.ok && one.value).toHaveLength(1);
  });
});
