import { har as validateHar } from 'har-validator';
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import { fingerprint, sign } from '../../../src-main/core/signing';
import type { ExchangeDetail } from '../../../src-main/shared/model';
import { logOf, openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { capture } from '../../helpers/captures';
import { exchangeOf } from '../../helpers/log-reads';

const SECRET = 'round-trip-signing-secret';
const API_KEY = 'ak_live_round_trip_0123456789';

async function withProfile(desk: Desk, secret = SECRET): Promise<void> {
  const saved = await desk.saveProfile({ name: 'staging', secret, apiKey: API_KEY, operatorUrl: 'http://127.0.0.1:1' });
  expect(saved.ok).toBe(true);
}

const pay = (deposit: string, extra = '') => `{"userId":"u1","depositId":"${deposit}","currency":"EUR","amount":10${extra}}`;
const win = (deposit: string) => `{"result":"WIN","userId":"u1","depositId":"${deposit}","roomId":"r1","gameId":"blocks","currency":"EUR","amount":19}`;

describe('HAR export and import', () => {
  it('round-trips bytes, headers, responses and verdicts through a second desk, and validates as HAR 1.2', async () => {
    const a = openDesk();
    const b = openDesk();
    try {
      await withProfile(a);
      await withProfile(b);
      const binary = Buffer.concat([Buffer.from('{"userId":"u'), Buffer.from([0xe9, 0xff, 0xfe, 0x00]), Buffer.from('","depositId":"d-bin"}')]);
      const ids = [
        await capture(a, {
          body: pay('d-1'),
          signature: { secret: SECRET },
          response: { status: 200, headers: [['Content-Type', 'application/json']], body: '{"ok":true}' },
        }),
        // Signed over the pretty-printed body: a mismatch the desk can explain.
        await capture(a, {
          path: '/platform/results',
          body: win('d-1'),
          signature: sign(Buffer.from(JSON.stringify(JSON.parse(win('d-1')), null, 2)), SECRET),
          response: { status: 500, body: Buffer.from([0x80, 0x81, 0x00, 0x7f]) },
        }),
        await capture(a, { body: binary, signature: { secret: SECRET }, query: 'a=1&b=%20x', response: null, error: 'Connection refused by 127.0.0.1:1' }),
        await capture(a, {
          body: pay('d-2'),
          signature: null,
          extraHeaders: [
            ['X-Trace', 'one'],
            ['x-trace', 'two'],
          ],
        }),
        await capture(a, { body: '', path: '/platform/pay', signature: 'not-hex' }),
      ];
      const before = await Promise.all(ids.map((id) => exchangeOf(a, id)));
      expect(before.map((x) => x.signature.verdict)).toEqual(['valid', 'mismatch', 'valid', 'missing', 'malformed']);

      const text = must(await a.exportHar({ direction: 'all' }));
      const doc = JSON.parse(text);
      await expect(validateHar(doc)).resolves.toBeTruthy();
      // The validator does judge: an entry without its request is refused.
      await expect(validateHar({ log: { ...doc.log, entries: [{ ...doc.log.entries[0], request: undefined }] } })).rejects.toThrow();
      expect(doc.log.entries).toHaveLength(5);
      // Oldest first, custom fields where HAR allows them.
      expect(doc.log.entries.map((e: { _wagerDesk: { id: number } }) => e._wagerDesk.id)).toEqual(ids);
      expect(doc.log.entries[2].request.postData._encoding).toBe('base64');
      expect(doc.log.entries[1].response.content.encoding).toBe('base64');
      expect(doc.log.entries[0].request.url).toBe('http://127.0.0.1:8080/platform/pay');
      expect(doc.log.entries[2].request.url).toBe('http://127.0.0.1:8080/platform/pay?a=1&b=%20x');
      expect(doc.log.entries[2].response.status).toBe(0);
      expect(doc.log.entries[2].response._error).toContain('Connection refused');

      const imported = must(await b.importHar(text, { origin: 'evidence.har' }));
      expect(imported.imported).toBe(5);
      const after = await Promise.all(imported.ids.map((id) => exchangeOf(b, id)));
      after.forEach((x: ExchangeDetail, i) => {
        const o = before[i]!;
        expect(x.direction).toBe('inbound');
        expect(x.origin).toBe('har-import');
        expect(x.tags).toEqual(['har:Wager Desk', 'file:evidence.har']);
        expect(Buffer.from(x.request.bodyBase64, 'base64').equals(Buffer.from(o.request.bodyBase64, 'base64'))).toBe(true);
        expect(x.request.headers).toEqual(o.request.headers);
        expect([x.request.method, x.request.path, x.request.query]).toEqual([o.request.method, o.request.path, o.request.query]);
        expect(x.signature.verdict).toBe(o.signature.verdict);
        expect(x.signature.diagnosis?.match?.variant).toBe(o.signature.diagnosis?.match?.variant);
        expect(x.at).toBe(o.at);
        expect(x.kind).toBe(o.kind);
        expect(x.depositId).toBe(o.depositId);
        expect(x.findings).toEqual(o.findings);
        expect(x.response?.status ?? null).toBe(o.response?.status ?? null);
        expect(x.response?.bodyBase64 ?? null).toBe(o.response?.bodyBase64 ?? null);
      });
      expect(after[1]!.signature.diagnosis?.match?.variant).toBe('pretty-2');
      expect(after[2]!.error).toContain('Connection refused');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('verifies imported entries with the chosen profile, not the active one', async () => {
    const a = openDesk();
    const b = openDesk();
    try {
      await withProfile(a);
      must(await b.saveProfile({ name: 'other', secret: 'a-different-secret' }));
      must(await b.saveProfile({ name: 'right', callbackPrefix: '/right', secret: SECRET }));
      await capture(a, { body: pay('d-9'), signature: { secret: SECRET } });
      const text = must(await a.exportHar({}));
      const active = must(await b.importHar(text, {}));
      const chosen = must(await b.importHar(text, { profile: 'right' }));
      expect((await exchangeOf(b, active.ids[0]!)).signature.verdict).toBe('mismatch');
      // The diagnosis finds the secret that did sign it, by profile name only.
      expect((await exchangeOf(b, active.ids[0]!)).signature.diagnosis?.match?.profile).toBe('right');
      expect((await exchangeOf(b, chosen.ids[0]!)).signature.verdict).toBe('valid');
      const unknown = await b.importHar(text, { profile: 'nope' });
      expect(unknown.ok).toBe(false);
      if (!unknown.ok) expect(unknown.error.code).toBe('not-found');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('never writes a stored secret or the API key into the HAR', async () => {
    const a = openDesk();
    try {
      await withProfile(a);
      must(await a.saveProfile({ name: 'second', callbackPrefix: '/second', secret: 'second-profile-secret' }));
      await capture(a, {
        body: pay('d-s'),
        signature: { secret: SECRET },
        extraHeaders: [
          ['X-Debug-Secret', SECRET],
          ['Authorization', `Bearer ${API_KEY}`],
          ['x-api-key', 'a-key-the-desk-never-stored'],
          ['X-Other', 'second-profile-secret'],
        ],
        response: { status: 200, headers: [['X-Echo', SECRET]], body: '{}' },
      });
      const text = must(await a.exportHar({}));
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain('a-key-the-desk-never-stored');
      expect(text).not.toContain('second-profile-secret');
      const headers = JSON.parse(text).log.entries[0].request.headers as Array<{ name: string; value: string }>;
      const value = (n: string) => headers.find((h) => h.name === n)?.value;
      expect(value('X-Debug-Secret')).toBe(`[redacted sha256:${fingerprint(SECRET)}]`);
      expect(value('Authorization')).toBe(`[redacted sha256:${fingerprint(API_KEY)}]`);
      expect(value('x-api-key')).toBe(`[redacted sha256:${fingerprint('a-key-the-desk-never-stored')}]`);
      // The signature is not a secret: it stays, so the HAR can be verified elsewhere.
      expect(value('x-server-authorization')).toBe(sign(Buffer.from(pay('d-s')), SECRET));
    } finally {
      await a.close();
    }
  });

  it('exports one deposit, one verdict, or one conformance report', async () => {
    const a = openDesk();
    try {
      await withProfile(a);
      const p1 = await capture(a, { body: pay('d-a'), signature: { secret: SECRET } });
      const r1 = await capture(a, { path: '/platform/results', body: win('d-a'), signature: 'f'.repeat(64) });
      const p2 = await capture(a, { body: pay('d-b'), signature: { secret: SECRET } });
      const ids = (text: string) => (JSON.parse(text).log.entries as Array<{ _wagerDesk: { id: number } }>).map((e) => e._wagerDesk.id);
      expect(ids(must(await a.exportHar({ depositId: 'd-a' })))).toEqual([p1, r1]);
      expect(ids(must(await a.exportHar({ verdict: 'valid' })))).toEqual([p1, p2]);
      expect(ids(must(await a.exportHar({ userId: 'u1', limit: 2 })))).toEqual([r1, p2]);
      const report = await logOf(a).reports.add({
        at: new Date().toISOString(),
        target: 'http://127.0.0.1:1',
        userId: 'u1',
        passed: 1,
        failed: 1,
        notObservable: 0,
        checks: [
          { id: 'c1', title: 'one', pass: true, expected: '200', actual: { status: 200, body: null }, exchangeIds: [p2] },
          { id: 'c2', title: 'two', pass: false, expected: '200', actual: { status: 500, body: null }, exchangeIds: [r1, p2] },
        ],
      });
      const reportHar = must(await a.exportHar({ reportId: report.id }));
      await expect(validateHar(JSON.parse(reportHar))).resolves.toBeTruthy();
      expect(ids(reportHar)).toEqual([p2, r1]);
      const missing = await a.exportHar({ reportId: 999 });
      expect(missing.ok ? null : missing.error.code).toBe('not-found');
      const empty = JSON.parse(must(await a.exportHar({ depositId: 'nothing-here' })));
      expect(empty.log.entries).toEqual([]);
      await expect(validateHar(empty)).resolves.toBeTruthy();
    } finally {
      await a.close();
    }
  });
});
