// One proxy for many operators: each profile's callback prefix routes to that profile (its secrets, its
// upstream, its sandbox books), a path under none is recorded unassigned and refused 404 by the desk,
// and the actions that follow (lists, timelines, re-verification, redelivery) stay inside one profile.
import { describe, expect, it } from 'vitest';
import { sign } from '../../../src-main/core/signing';
import type { ExchangeSummary } from '../../../src-main/shared/model';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { startOperator } from '../../helpers/operator';
import { startRecorder } from '../../helpers/servers';
import { closedPort, json, send, startProxy, type RunningProxy } from './helpers';

const pay = (depositId: string, userId = 'u-1'): string => JSON.stringify({ depositId, userId, amount: 100, currency: 'EUR', gameId: 'blocks' });
const signed = (body: string, secret: string): Record<string, string> => ({
  'content-type': 'application/json',
  'x-server-authorization': sign(Buffer.from(body), secret),
});

/** The proxy serving every profile, each forwarding to its own upstream (startProxy's default is the sandbox for all). */
async function serveAll(desk: ReturnType<typeof openDesk>): Promise<RunningProxy> {
  const started = must(await desk.startProxy({ port: 0 }));
  return { desk, url: started.proxy.url!, port: started.proxy.port! };
}

async function rows(desk: ReturnType<typeof openDesk>, query: Parameters<ReturnType<typeof openDesk>['listExchanges']>[0]): Promise<ExchangeSummary[]> {
  return must(await desk.listExchanges(query)).items;
}

describe('one proxy, many operators', () => {
  it('routes each prefix to its profile: recorded under it, verified with its secret, forwarded to its upstream; a path under none is 404 by the desk', async () => {
    const acmeOp = closeAfterTest(await startOperator({ secret: 'acme-secret', callbackPrefix: '/acme' }));
    const boltOp = closeAfterTest(await startOperator({ secret: 'bolt-secret', callbackPrefix: '/api/bolt' }));
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'acme', callbackPrefix: '/acme', secret: 'acme-secret', upstream: acmeOp.url }));
    must(await desk.saveProfile({ name: 'bolt', callbackPrefix: '/api/bolt', secret: 'bolt-secret', upstream: boltOp.url }));
    const proxy = await serveAll(desk);

    const a = await send(proxy.url, { path: '/acme/pay', headers: signed(pay('d-1'), 'acme-secret'), body: pay('d-1') });
    const b = await send(proxy.url, { path: '/api/bolt/pay', headers: signed(pay('d-1'), 'bolt-secret'), body: pay('d-1') });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(acmeOp.requests.map((r) => r.path)).toEqual(['/acme/pay']);
    expect(boltOp.requests.map((r) => r.path)).toEqual(['/api/bolt/pay']);

    const stray = await send(proxy.url, { path: '/elsewhere/pay', headers: signed(pay('d-2'), 'acme-secret'), body: pay('d-2') });
    expect(stray.status).toBe(404);
    expect(json(stray)).toEqual({ errors: [{ code: 'NOT_FOUND', isClientSafe: false }] });
    expect(acmeOp.requests).toHaveLength(1);
    expect(boltOp.requests).toHaveLength(1);

    const all = await rows(desk, { allProfiles: true });
    expect(all.map((x) => [x.path, x.profile, x.signature.verdict, x.response?.status])).toEqual([
      ['/elsewhere/pay', null, null, 404],
      ['/api/bolt/pay', 'bolt', 'valid', 200],
      ['/acme/pay', 'acme', 'valid', 200],
    ]);
    expect(all[0]!.error).toMatch(/no profile's callback prefix matches this path/);
    // The active profile's list by default; another's when named.
    expect((await rows(desk, {})).map((x) => x.path)).toEqual(['/acme/pay']);
    expect((await rows(desk, { profile: 'bolt' })).map((x) => x.path)).toEqual(['/api/bolt/pay']);

    // The status names every profile's callback URLs.
    const status = must(await desk.getStatus()).proxy;
    expect(status.profileCallbackUrls?.map((u) => [u.profile, u.pay])).toEqual([
      ['acme', `${proxy.url}/acme/pay`],
      ['bolt', `${proxy.url}/api/bolt/pay`],
    ]);
  });

  it('a callback signed with the other profile’s secret is a mismatch under its own prefix; serve --profile narrows to one', async () => {
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'acme', callbackPrefix: '/acme', secret: 'acme-secret' }));
    must(await desk.saveProfile({ name: 'bolt', callbackPrefix: '/bolt', secret: 'bolt-secret' }));
    const proxy = await startProxy(desk);
    await send(proxy.url, { path: '/bolt/pay', headers: signed(pay('d-9'), 'acme-secret'), body: pay('d-9') });
    const [row] = await rows(desk, { profile: 'bolt' });
    expect(row!.signature.verdict).toBe('mismatch');

    // Narrowed to one profile, the proxy is that operator's alone (and transparent, as a one-operator proxy is).
    await startProxy(desk, { profile: 'bolt', port: proxy.port });
    const other = await send(proxy.url, { path: '/acme/pay', headers: signed(pay('d-10'), 'bolt-secret'), body: pay('d-10') });
    expect(other.status).toBe(200);
    const [narrowed] = await rows(desk, { profile: 'bolt' });
    expect([narrowed!.path, narrowed!.signature.verdict]).toEqual(['/acme/pay', 'valid']);
  });

  it('keeps each profile’s sandbox books: one deposit id under two profiles is two deposits and two timelines', async () => {
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'acme', callbackPrefix: '/acme', secret: 'acme-secret' }));
    must(await desk.saveProfile({ name: 'bolt', callbackPrefix: '/bolt', secret: 'bolt-secret' }));
    const proxy = await startProxy(desk);
    const first = await send(proxy.url, { path: '/acme/pay', headers: signed(pay('d-same'), 'acme-secret'), body: pay('d-same') });
    const second = await send(proxy.url, { path: '/bolt/pay', headers: signed(pay('d-same'), 'bolt-secret'), body: pay('d-same') });
    // Both books deduct from a user of their own: the second pay is no repeat of the first.
    expect(json(first)).toMatchObject({ status: 'ok', balance: 900 });
    expect(json(second)).toMatchObject({ status: 'ok', balance: 900 });
    expect(must(await desk.getSandboxState()).deposits.map((d) => d.depositId)).toEqual(['d-same']);

    const acme = must(await desk.getTimeline('d-same'));
    const bolt = must(await desk.getTimeline('d-same', 'bolt'));
    expect(acme.entries.map((x) => x.path)).toEqual(['/acme/pay']);
    expect(bolt.entries.map((x) => x.path)).toEqual(['/bolt/pay']);
    expect([...acme.flags, ...bolt.flags].map((f) => f.flag)).not.toContain('duplicate-pay');
  });

  it('re-verification and redelivery of one profile touch none of the other’s captures', async () => {
    const acmeOp = closeAfterTest(await startOperator({ secret: 'acme-secret', callbackPrefix: '/acme' }));
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'acme', callbackPrefix: '/acme', secret: 'acme-secret', upstream: acmeOp.url }));
    // bolt's operator is down: its captures are answered 502 by the desk, failed deliveries all.
    must(await desk.saveProfile({ name: 'bolt', callbackPrefix: '/bolt', secret: 'bolt-secret', upstream: `http://127.0.0.1:${await closedPort()}` }));
    const proxy = await serveAll(desk);
    // acme: one delivered, one refused by the operator (a bad signature): one failed.
    await send(proxy.url, { path: '/acme/pay', headers: signed(pay('a-ok'), 'acme-secret'), body: pay('a-ok') });
    await send(proxy.url, { path: '/acme/pay', headers: signed(pay('a-bad'), 'not-the-secret'), body: pay('a-bad') });
    await send(proxy.url, { path: '/bolt/pay', headers: signed(pay('b-1'), 'bolt-secret'), body: pay('b-1') });
    await send(proxy.url, { path: '/bolt/pay', headers: signed(pay('b-2'), 'bolt-secret'), body: pay('b-2') });
    const bolts = await rows(desk, { profile: 'bolt' });
    expect(bolts.map((x) => x.response?.status)).toEqual([502, 502]);

    // Re-verified with acme's secret: bolt's captures are not judged (they stay valid, never re-judged).
    const report = must(await desk.reverify({ profile: 'acme' }));
    expect(report.judged).toBe(2);
    for (const x of bolts) expect(must(await desk.getExchange(x.id))).toMatchObject({ reverified: null, signature: { verdict: 'valid' } });

    // Redelivery of acme's failed captures sends acme's only, to acme's target.
    const target = closeAfterTest(await startRecorder());
    const selection = must(await desk.selectRedelivery({ failed: true }));
    expect(selection.items.map((x) => x.depositId)).toEqual(['a-bad']);
    const run = must(await desk.redeliver({ filter: { failed: true }, to: target.url, rate: 1000 }));
    expect(run).toMatchObject({ profile: 'acme', sent: 1 });
    expect(target.received.map((r) => r.url)).toEqual(['/acme/pay']);

    // bolt's captures asked for by id under acme are refused, naming whose they are.
    const refused = await desk.redeliver({ filter: { idRanges: [[bolts[0]!.id, bolts[0]!.id]] }, to: target.url });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(new RegExp(`#${bolts[0]!.id} \\(profile "bolt"\\)`));
    expect(target.received).toHaveLength(1);

    // Under bolt, its failed captures go, and acme's do not.
    const boltRun = must(await desk.redeliver({ filter: { failed: true }, profile: 'bolt', to: target.url, rate: 1000 }));
    expect(boltRun).toMatchObject({ profile: 'bolt', sent: 2 });
    expect(target.received.map((r) => r.url)).toEqual(['/acme/pay', '/bolt/pay', '/bolt/pay']);
  });

  it('refuses to re-sign a capture whose captured signature was not valid, unless told to, and counts it', async () => {
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'acme', callbackPrefix: '/acme', secret: 'acme-secret' }));
    const proxy = await startProxy(desk);
    await send(proxy.url, { path: '/acme/pay', headers: signed(pay('foreign'), 'someone-else'), body: pay('foreign') });
    const [x] = await rows(desk, {});
    expect(x!.signature.verdict).toBe('mismatch');
    const target = closeAfterTest(await startRecorder());
    const filter = { idRanges: [[x!.id, x!.id]] as Array<[number, number]>, again: true };

    const refused = must(await desk.redeliver({ filter, to: target.url, signature: 'resign' }));
    expect(refused).toMatchObject({ sent: 0, resignRefused: 1, skipped: 1 });
    expect(target.received).toHaveLength(0);

    const forced = must(await desk.redeliver({ filter, to: target.url, signature: 'resign', resignInvalid: true }));
    expect(forced).toMatchObject({ sent: 1, resignRefused: 0 });
    expect(target.received[0]!.headers['x-server-authorization']).toBe(sign(Buffer.from(pay('foreign')), 'acme-secret'));
  });

  it('refuses a profile whose callback prefix overlaps another’s, naming it; a copy gets a prefix of its own', async () => {
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'acme', callbackPrefix: '/acme' }));
    for (const prefix of ['/acme', '/acme/v2']) {
      const saved = await desk.saveProfile({ name: 'other', callbackPrefix: prefix });
      expect(saved.ok).toBe(false);
      if (!saved.ok) expect(saved.error.message).toMatch(/profile "acme" \(\/acme\)/);
    }
    must(await desk.saveProfile({ name: 'plain' }));
    const same = await desk.saveProfile({ name: 'plain-too' });
    expect(same.ok).toBe(false);
    if (!same.ok) expect(same.error.message).toMatch(/\/platform is the callback prefix of profile "plain"/);
    expect(must(await desk.duplicateProfile('acme', 'Acme Copy')).callbackPrefix).toBe('/acme-copy');
    // Editing a profile without touching its prefix is never refused.
    must(await desk.saveProfile({ name: 'acme', operatorId: 'op-1' }));
  });
});

describe('captures that arrived before their profile', () => {
  it('are adopted by the profile whose prefix they lie under when it is created; the others stay unassigned', async () => {
    const desk = openDesk();
    const proxy = await serveAll(desk);
    const first = await send(proxy.url, { path: '/acme/pay', headers: { 'content-type': 'application/json' }, body: pay('early-1') });
    const other = await send(proxy.url, { path: '/elsewhere/pay', headers: { 'content-type': 'application/json' }, body: pay('early-2') });
    expect([first.status, other.status].every((s) => s > 0)).toBe(true);
    const before = await rows(desk, { allProfiles: true });
    expect(before.map((r) => r.profile)).toEqual([null, null]);

    must(await desk.saveProfile({ name: 'acme', callbackPrefix: '/acme', secret: 'acme-secret' }));
    const after = await rows(desk, { allProfiles: true });
    expect(Object.fromEntries(after.map((r) => [r.depositId, r.profile]))).toEqual({ 'early-1': 'acme', 'early-2': null });
    // The active profile's list now holds the capture it adopted.
    expect((await rows(desk, {})).map((r) => r.depositId)).toEqual(['early-1']);
  });
});
