// Probe header templates: {userId} and the HMAC-SHA256 of a template under the probe's sealed key, in
// hex or base64; the key's entry is never sent, and a value that cannot be sent says why.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkHeaderTemplate, HMAC_KEY_ENTRY, renderProbeHeaders } from '../../../src-main/core/balance-probe/probe-headers';

const KEY = 'probe-key-3b9e';

describe('probe header templates', () => {
  it('writes {userId} and each HMAC of its template for the user, and leaves the key out', () => {
    const rendered = renderProbeHeaders(
      [
        ['X-User', '{userId}'],
        ['X-Sig', 'v1={hmac-sha256-hex:GET /balance/{userId}}'],
        ['X-Sig-B64', '{hmac-sha256-base64:{userId}|{userId}}'],
        ['X-Token', 'plain {not-a-template}'],
        [HMAC_KEY_ENTRY, KEY],
      ],
      'alice',
      'p',
    );
    expect(rendered).toEqual({
      ok: true,
      headers: [
        ['X-User', 'alice'],
        ['X-Sig', `v1=${createHmac('sha256', KEY).update('GET /balance/alice').digest('hex')}`],
        ['X-Sig-B64', createHmac('sha256', KEY).update('alice|alice').digest('base64')],
        ['X-Token', 'plain {not-a-template}'],
      ],
    });
  });

  it('says why a header cannot be sent: no key, an id a header cannot hold', () => {
    expect(renderProbeHeaders([['X-Sig', '{hmac-sha256-hex:{userId}}']], 'alice', 'p')).toEqual({
      ok: false,
      reason: 'the balance header X-Sig is signed, and no signing key is set: profile set p --balance-hmac-key-env VAR',
    });
    const split = renderProbeHeaders([['X-User', '{userId}']], 'alice\r\nX-Admin: 1', 'p');
    expect(split.ok).toBe(false);
    // Signed, the id never reaches the header itself: any id can be signed.
    const signed = renderProbeHeaders(
      [
        ['X-Sig', '{hmac-sha256-hex:{userId}}'],
        [HMAC_KEY_ENTRY, KEY],
      ],
      'ünï\ncode',
      'p',
    );
    expect(signed).toEqual({ ok: true, headers: [['X-Sig', createHmac('sha256', KEY).update('ünï\ncode').digest('hex')]] });
  });

  it('refuses a template that is not closed or holds other braces, without quoting the value', () => {
    expect(() => checkHeaderTemplate('secret-{hmac-sha256-hex:{userId}')).toThrow('{hmac-sha256-hex:...} is not closed with "}"');
    expect(() => checkHeaderTemplate('{hmac-sha256-base64:{user}}')).toThrow('inside {hmac-sha256-base64:...} only {userId} may be in braces');
    expect(() => checkHeaderTemplate('Bearer abc{userId}')).not.toThrow();
  });
});
