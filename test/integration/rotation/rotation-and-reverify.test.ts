import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExchangeSummary } from '../../../src-main/shared/model';
import { capture } from '../../helpers/captures';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { tempDir } from '../../helpers/temp';

const pay = (depositId: string): string => JSON.stringify({ depositId, userId: 'u-1', amount: 100, currency: 'EUR', gameId: 'blocks' });

describe('a secret rotation', () => {
  it('accepts a callback signed with the previous secret, says so, and re-signs with the current one', async () => {
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'acme', secret: 'new-secret', previousSecret: 'old-secret' }));
    const view = must(await desk.listProfiles())[0]!;
    expect(view.previousSecret.set).toBe(true);
    expect(JSON.stringify(view)).not.toContain('old-secret');

    const byOld = await capture(desk, { body: pay('d-old'), signature: { secret: 'old-secret' } });
    const byNew = await capture(desk, { body: pay('d-new'), signature: { secret: 'new-secret' } });
    const byOther = await capture(desk, { body: pay('d-other'), signature: { secret: 'someone-else' } });

    const old = must(await desk.getExchange(byOld));
    expect(old.signature.verdict).toBe('valid');
    expect(old.signature.secret).toBe('previous');
    expect(old.signature.notes.join(' ')).toMatch(/valid with the previous secret of profile "acme" \(sha256:[0-9a-f]{8}\)/i);
    const current = must(await desk.getExchange(byNew));
    expect(current.signature).toMatchObject({ verdict: 'valid', secret: 'current' });
    expect(must(await desk.getExchange(byOther)).signature.verdict).toBe('mismatch');

    // Re-signing (what replay --signature resign and sign use) takes the current secret, never the previous one.
    const body = Buffer.from(pay('d-1')).toString('base64');
    const signed = must(await desk.signBody(body, { profile: 'acme' }));
    expect(must(await desk.verifySignature(body, signed, { profile: 'acme' }))).toMatchObject({ verdict: 'valid', secret: 'current' });

    // Without the previous secret the same capture is a mismatch, diagnosed as another secret no more.
    must(await desk.saveProfile({ name: 'acme', previousSecret: null }));
    expect(must(await desk.listProfiles())[0]!.previousSecret.set).toBe(false);
    const after = await capture(desk, { body: pay('d-old-2'), signature: { secret: 'old-secret' } });
    expect(must(await desk.getExchange(after)).signature.verdict).toBe('mismatch');
  });

  it('diagnoses a mismatch signed with another profile’s previous secret', async () => {
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'acme', secret: 'acme-secret' }));
    must(await desk.saveProfile({ name: 'beta', callbackPrefix: '/beta', secret: 'beta-new', previousSecret: 'beta-old' }));
    const id = await capture(desk, { body: pay('d-b'), signature: { secret: 'beta-old' } });
    const x = must(await desk.getExchange(id));
    expect(x.signature.verdict).toBe('mismatch');
    expect(x.signature.diagnosis?.match).toMatchObject({ variant: 'other-previous-secret', profile: 'beta' });
  });

  it('keeps the previous secret sealed: never in the database in clear, redacted where a capture carries it', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    const previous = 'previous-canary-7f3a9b1c2d';
    must(await desk.saveProfile({ name: 'acme', secret: 'current-secret', previousSecret: previous }));
    const id = await capture(desk, { body: JSON.stringify({ depositId: 'd-leak', note: previous }), signature: { secret: previous } });
    const x = must(await desk.getExchange(id));
    expect(x.signature).toMatchObject({ verdict: 'valid', secret: 'previous' });
    expect(Buffer.from(x.request.bodyBase64, 'base64').toString()).not.toContain(previous);
    await desk.close();
    for (const f of readdirSync(home)) if (f.startsWith('wager-desk')) expect(readFileSync(join(home, f)).includes(previous)).toBe(false);
  });

  it('refuses a previous secret that is the current one', async () => {
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'acme', secret: 'same' }));
    const r = await desk.saveProfile({ name: 'acme', previousSecret: 'same' });
    expect(r.ok).toBe(false);
  });
});

describe('verify again', () => {
  it('flips captures taken before the secret was set to valid, records when and with what, and announces each row', async () => {
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'acme' }));
    const ids: number[] = [];
    for (const d of ['d-1', 'd-2', 'd-3']) ids.push(await capture(desk, { body: pay(d), signature: { secret: 'the-secret' } }));
    const unsigned = await capture(desk, { body: pay('d-4') });
    for (const id of ids) expect(must(await desk.getExchange(id)).signature.verdict).toBe('no-secret');

    const refused = await desk.reverify({});
    expect(refused.ok ? null : refused.error.code).toBe('no-secret');

    must(await desk.saveProfile({ name: 'acme', secret: 'the-secret' }));
    const announced: ExchangeSummary[] = [];
    desk.on((name, payload) => {
      if (name === 'exchange') announced.push((payload as { exchange: ExchangeSummary }).exchange);
    });
    const report = must(await desk.reverify({ query: { verdict: 'no-secret' } }));
    expect(report).toMatchObject({ judged: 3, changed: 3, profile: 'acme', verdicts: { valid: 3 } });
    expect(report.fingerprint).toMatch(/^[0-9a-f]{8}$/);
    expect(report.changedIds).toEqual(ids);
    expect(announced.map((x) => [x.id, x.signature.verdict])).toEqual(ids.map((id) => [id, 'valid']));

    const x = must(await desk.getExchange(ids[0]!));
    expect(x.signature.verdict).toBe('valid');
    expect(x.reverified).toMatchObject({ profile: 'acme', fingerprint: report.fingerprint, originalVerdict: 'no-secret', at: report.at });
    expect(JSON.stringify(x.reverified)).not.toContain('the-secret');
    expect(must(await desk.getExchange(unsigned)).signature.verdict).toBe('missing');
    expect(must(await desk.getExchange(unsigned)).reverified).toBeNull();

    // Judged again once more, the original verdict stays the first one; ids narrow the selection.
    const again = must(await desk.reverify({ ids: [ids[1]!] }));
    expect(again).toMatchObject({ judged: 1, changed: 0 });
    expect(must(await desk.getExchange(ids[1]!)).reverified?.originalVerdict).toBe('no-secret');
  });

  it('walks more rows than one page in bounded pages', async () => {
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'acme' }));
    for (let i = 0; i < 1203; i++) await capture(desk, { body: pay(`d-${i}`), signature: { secret: 's' } });
    must(await desk.saveProfile({ name: 'acme', secret: 's' }));
    const report = must(await desk.reverify({}));
    expect(report).toMatchObject({ judged: 1203, changed: 1203 });
    expect(report.changedIds.length).toBe(1000);
  });
});
