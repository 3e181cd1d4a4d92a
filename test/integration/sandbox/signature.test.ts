// Each signature verdict through the proxy: what is recorded on the capture, and what the sandbox
// operator answers with and without a configured secret.
import { describe, expect, it } from 'vitest';
import { sign } from '../../../src-main/core/signing';
import type { Verdict } from '../../../src-main/shared/model';
import { latest, json, send, startProxy } from '../proxy/helpers';
import { openDesk } from '../../helpers/desk';

const SECRET = 'sandbox-test-secret';
const BODY = Buffer.from('{"userId":"u-1","depositId":"d-sig","currency":"USD","amount":5}');
const SIGNATURE_CASES: Array<{ name: Verdict; header: string | undefined }> = [
  { name: 'valid', header: sign(BODY, SECRET) },
  { name: 'mismatch', header: sign(BODY, 'another secret') },
  { name: 'missing', header: undefined },
  { name: 'malformed', header: 'not-a-hex-signature' },
];

function headersWith(signature: string | undefined): Record<string, string> {
  return { 'content-type': 'application/json', ...(signature !== undefined ? { 'x-server-authorization': signature } : {}) };
}

describe('signature verdicts with a secret configured (active profile)', () => {
  for (const c of SIGNATURE_CASES) {
    it(`${c.name}: recorded as ${c.name}; ${c.name === 'valid' ? 'accepted' : 'refused with 401 INVALID_SIGNATURE'}`, async () => {
      const desk = openDesk();
      expect((await desk.saveProfile({ name: 'staging', secret: SECRET })).ok).toBe(true);
      const { url } = await startProxy(desk);
      const reply = await send(url, { body: BODY, headers: headersWith(c.header) });
      const row = await latest(desk);
      expect(row.signature.verdict).toBe(c.name);
      if (c.name === 'valid') {
        expect(reply.status).toBe(200);
      } else {
        expect(reply.status).toBe(401);
        expect(json(reply)).toEqual({ errors: [{ code: 'INVALID_SIGNATURE', isClientSafe: false }] });
        const state = await desk.getSandboxState();
        expect(state.ok && state.value.deposits).toEqual([]);
      }
      expect(row.response?.status).toBe(reply.status);
    });
  }

  it("a mismatch made with another stored profile's secret is diagnosed as such", async () => {
    const desk = openDesk();
    await desk.saveProfile({ name: 'staging', secret: SECRET });
    await desk.saveProfile({ name: 'production', callbackPrefix: '/production', secret: 'the production secret' });
    const { url } = await startProxy(desk);
    await send(url, { body: BODY, headers: headersWith(sign(BODY, 'the production secret')) });
    const row = await latest(desk);
    expect(row.signature.verdict).toBe('mismatch');
    expect(row.signature.diagnosis?.match).toMatchObject({ variant: 'other-secret', profile: 'production' });
  });

  it("a secret given at start (kept in memory) wins over the profile's", async () => {
    const desk = openDesk();
    await desk.saveProfile({ name: 'staging', secret: SECRET });
    const { url } = await startProxy(desk, { secret: { label: '--secret-env S', secret: 'override' } });
    expect((await send(url, { body: BODY, headers: headersWith(sign(BODY, 'override')) })).status).toBe(200);
    expect((await latest(desk)).signature.verdict).toBe('valid');
    expect((await send(url, { body: BODY, headers: headersWith(sign(BODY, SECRET)) })).status).toBe(401);
  });
});

describe('signature verdicts with no secret configured', () => {
  it('a well-formed signature is recorded as no-secret, none as missing; both accepted', async () => {
    const desk = openDesk();
    // A profile without a secret is active; another profile's secret must not be used to judge.
    await desk.saveProfile({ name: 'no-secret-here' });
    await desk.saveProfile({ name: 'other', callbackPrefix: '/other', secret: SECRET });
    const { url } = await startProxy(desk);
    const signed = await send(url, { body: BODY, headers: headersWith(sign(BODY, SECRET)) });
    expect(signed.status).toBe(200);
    expect((await latest(desk)).signature.verdict).toBe('no-secret');
    const unsigned = await send(url, {
      path: '/platform/results',
      body: '{"result":"LOSE","userId":"u-1","depositId":"d-sig","roomId":"r","gameId":"blocks"}',
    });
    expect(unsigned.status).toBe(200);
    expect((await latest(desk)).signature.verdict).toBe('missing');
  });

  it('a malformed header is recorded as malformed and still accepted', async () => {
    const desk = openDesk();
    const { url } = await startProxy(desk);
    expect((await send(url, { body: BODY, headers: headersWith('zz') })).status).toBe(200);
    expect((await latest(desk)).signature.verdict).toBe('malformed');
  });

  it('a path that is not a callback has no verdict unless it carries a signature', async () => {
    const desk = openDesk();
    const { url } = await startProxy(desk);
    await send(url, { method: 'GET', path: '/favicon.ico' });
    expect((await latest(desk)).signature.verdict).toBeNull();
  });
});
