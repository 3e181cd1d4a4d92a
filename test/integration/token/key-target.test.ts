// The stored API key goes only where its profile says: the profile's base URL. Another URL (typed in the
// Tokens screen, or sent by whoever holds the local API) gets it only with a key given for that call, or
// a confirmation that names exactly that URL; otherwise it receives nothing at all.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import type { TokenRequest } from '../../../src-main/shared/model';
import { tempDir } from '../../helpers/temp';
import { sqliteOf } from '../../helpers/desk';
import { OPERATOR_ID, startTokenEndpoint, type TokenEndpoint } from './token-endpoint';

const STORED_KEY = 'ak_stored_9a8b7c6d5e4f';
const CALL_KEY = 'ak_for_this_call_1a2b3c';

let own: TokenEndpoint;
let other: TokenEndpoint;
let desk: Desk;

beforeEach(async () => {
  own = await startTokenEndpoint(STORED_KEY);
  other = await startTokenEndpoint(CALL_KEY);
  desk = createDesk({ home: tempDir(), outboundTimeoutMs: 2000 });
  expect((await desk.saveProfile({ name: 'staging', baseUrl: own.url, operatorId: OPERATOR_ID, apiKey: STORED_KEY })).ok).toBe(true);
});

afterEach(async () => {
  await desk.close();
  await own.close();
  await other.close();
});

const ask = (request: Partial<TokenRequest> = {}) => desk.requestToken({ userId: 'user-42', displayName: 'Ada Tester', ...request });

describe('where the stored API key may go', () => {
  it("to the profile's base URL (also spelled with a trailing slash or upper-case scheme)", async () => {
    expect((await ask()).ok).toBe(true);
    expect((await ask({ baseUrl: `${own.url.replace('http:', 'HTTP:')}/` })).ok).toBe(true);
    expect(own.seen.map((s) => s.headers['x-api-key'])).toEqual([STORED_KEY, STORED_KEY]);
  });

  it('not to another URL: refused as needing confirmation, and that server receives nothing', async () => {
    const r = await ask({ baseUrl: other.url });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('needs-confirmation');
      expect(r.error.message).toContain(other.url);
      expect(r.error.message).not.toContain(STORED_KEY);
    }
    // A confirmation that names another URL does not count.
    expect((await ask({ baseUrl: other.url, confirmedBaseUrl: own.url })).ok).toBe(false);
    expect(other.seen).toEqual([]);
    expect(sqliteOf(desk).prepare("SELECT COUNT(*) FROM exchanges WHERE kind = 'token'").pluck().get()).toBe(0);
  });

  it('to another URL with a key given for that call: that key, never the stored one', async () => {
    const r = await ask({ baseUrl: other.url, apiKey: CALL_KEY });
    expect(r.ok && r.value.status).toBe(200);
    expect(other.seen.map((s) => s.headers['x-api-key'])).toEqual([CALL_KEY]);
  });

  it('to another URL when the caller confirms exactly that URL', async () => {
    other.mode = 'echo-key';
    const r = await ask({ baseUrl: other.url, confirmedBaseUrl: other.url });
    expect(r.ok).toBe(true);
    expect(other.seen.map((s) => s.headers['x-api-key'])).toEqual([STORED_KEY]);
  });

  it('a profile without a base URL sends its stored key nowhere without a confirmation', async () => {
    expect((await desk.saveProfile({ name: 'staging', baseUrl: null })).ok).toBe(true);
    const r = await ask({ baseUrl: other.url });
    expect(r.ok === false && r.error.code).toBe('needs-confirmation');
    expect(other.seen).toEqual([]);
  });
});
