// Redelivery through the desk: captures that failed while the operator was down reach it once each,
// in capture order, byte for byte with the platform's signatures; a second run sends nothing.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import type { RedeliveryProgress, RedeliveryReport, RedeliveryRequest } from '../../../src-main/shared/model';
import { sign } from '../../../src-main/core/signing';
import { capture } from '../../helpers/captures';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { startOperator } from '../../helpers/operator';

const SECRET = 'redeliver-shared-secret';

function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A URL where nothing listens: a port just given up by a server. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function redeliver(desk: Desk, req: RedeliveryRequest): Promise<RedeliveryReport> {
  return must(await desk.redeliver({ rate: 5000, ...req }));
}

const payBody = (dep: string, user = 'u-1') => JSON.stringify({ userId: user, depositId: dep, currency: 'USD', amount: 5 });
const winBody = (dep: string, user = 'u-1') =>
  JSON.stringify({ result: 'WIN', userId: user, depositId: dep, roomId: null, gameId: null, currency: 'USD', amount: 9 });

describe('redeliver', () => {
  it('sends the callbacks that failed while the operator was down once each, in order, byte-exact, and a second run sends nothing', async () => {
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'op', secret: SECRET }));
    const proxy = must(await desk.startProxy({ port: 0, host: '127.0.0.1', upstream: await deadUrl() }));
    const sent: Array<{ path: string; body: Buffer; signature: string }> = [];
    for (const [path, body] of [
      ['/platform/pay', payBody('d-1')],
      ['/platform/pay', payBody('d-2')],
      ['/platform/results', winBody('d-1')],
      ['/platform/results', winBody('d-2')],
    ] as const) {
      // Key order and spacing the desk would never write: the bytes must travel as they are.
      const bytes = Buffer.from(body.replace('{', '{ '));
      const signature = sign(bytes, SECRET);
      expect(
        await post(`${proxy.proxy.url}${path}`, bytes, { 'content-type': 'application/json', 'x-server-authorization': signature }),
      ).toBeGreaterThanOrEqual(500);
      sent.push({ path, body: bytes, signature });
    }
    must(await desk.stopProxy());

    // The operator is back.
    const operator = closeAfterTest(await startOperator({ secret: SECRET }));
    must(await desk.saveProfile({ name: 'op', operatorUrl: operator.url }));
    const preview = must(await desk.selectRedelivery({ failed: true }));
    expect(preview.count).toBe(4);
    expect(preview.items.map((x) => x.path)).toEqual(sent.map((s) => s.path));

    const events: RedeliveryProgress[] = [];
    desk.on((name, payload) => name === 'redeliver-progress' && events.push(payload as RedeliveryProgress));
    const report = await redeliver(desk, { filter: { failed: true }, runId: 'first' });
    expect(report).toMatchObject({ selected: 4, sent: 4, ok: 4, failed: 0, skipped: 0, stopped: null, signature: 'keep', target: operator.url });
    expect(operator.requests.map((r) => r.path)).toEqual(sent.map((s) => s.path));
    operator.requests.forEach((r, i) => {
      expect(r.body.equals(sent[i]!.body)).toBe(true);
      expect(r.headers['x-server-authorization']).toBe(sent[i]!.signature);
      expect(r.rawSignatureValid).toBe(true);
      expect(r.status).toBe(200);
    });
    expect(operator.balances.get('u-1')).toBe(100_000 - 10 + 18);
    // Each send is an outbound row linked to its capture.
    const rows = must(await desk.listExchanges({ direction: 'outbound', limit: 10 })).items.reverse();
    expect(rows.map((x) => x.origin)).toEqual(['redeliver', 'redeliver', 'redeliver', 'redeliver']);
    expect(rows.map((x) => x.sourceId)).toEqual(preview.items.map((x) => x.id));
    // Progress: a first event before any send, one per send, the last with the report.
    expect(events.filter((e) => e.runId === 'first').map((e) => e.done)).toEqual([0, 1, 2, 3, 4, 4]);
    expect(events.at(-1)!.report).toEqual(report);

    const second = await redeliver(desk, { filter: { failed: true } });
    expect(second).toMatchObject({ selected: 4, sent: 0, skipped: 4 });
    expect(operator.requests).toHaveLength(4);
    expect(must(await desk.selectRedelivery({ failed: true }))).toMatchObject({ count: 0, skipped: 4 });

    // --again sends them all once more.
    const again = await redeliver(desk, { filter: { failed: true, again: true } });
    expect(again).toMatchObject({ sent: 4, ok: 4, skipped: 0 });
    expect(operator.requests).toHaveLength(8);
  });

  it('selects by every filter, in capture order', async () => {
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'op', secret: SECRET }));
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const ids = [
      await capture(desk, { body: payBody('d-a', 'u-a'), at: at(300), response: { status: 200 }, signature: { secret: SECRET } }),
      await capture(desk, { body: payBody('d-b', 'u-b'), at: at(90), error: 'connection refused', signature: { secret: SECRET } }),
      await capture(desk, { path: '/platform/results', body: winBody('d-b', 'u-b'), at: at(60), response: { status: 503 }, signature: 'ab'.repeat(32) }),
      await capture(desk, { body: payBody('d-c', 'u-a'), at: at(10), response: { status: 204 } }),
      await capture(desk, { path: '/platform/other', body: '{}', at: at(5), response: { status: 404 } }),
    ];
    const select = async (filter: Parameters<Desk['selectRedelivery']>[0]) => must(await desk.selectRedelivery(filter, { limit: 100 })).items.map((x) => x.id);
    expect(await select({})).toEqual(ids.slice(0, 4));
    expect(await select({ failed: true })).toEqual([ids[1], ids[2]]);
    expect(await select({ since: '2h' })).toEqual([ids[1], ids[2], ids[3]]);
    expect(await select({ since: '2h', until: '30m' })).toEqual([ids[1], ids[2]]);
    expect(await select({ until: at(200) })).toEqual([ids[0]]);
    expect(await select({ depositId: 'd-b' })).toEqual([ids[1], ids[2]]);
    expect(await select({ userId: 'u-a' })).toEqual([ids[0], ids[3]]);
    expect(await select({ kind: 'results' })).toEqual([ids[2]]);
    expect(await select({ verdict: 'mismatch' })).toEqual([ids[2]]);
    expect(
      await select({
        idRanges: [
          [ids[0]!, ids[0]!],
          [ids[2]!, ids[4]!],
        ],
      }),
    ).toEqual([ids[0], ids[2], ids[3]]);
    expect(await select({ failed: true, kind: 'pay' })).toEqual([ids[1]]);
    // Paging the preview.
    const first = must(await desk.selectRedelivery({}, { limit: 3 }));
    expect(first).toMatchObject({ count: 4, nextAfterId: ids[2] });
    expect(must(await desk.selectRedelivery({}, { limit: 3, afterId: first.nextAfterId! })).items.map((x) => x.id)).toEqual([ids[3]]);
    const badTime = await desk.selectRedelivery({ since: 'yesterday' });
    expect(badTime.ok ? null : badTime.error.code).toBe('bad-input');
  });

  it('keeps a wrong captured signature unless asked to re-sign, and stops at the first failure when asked', async () => {
    const desk = openDesk();
    const operator = closeAfterTest(await startOperator({ secret: SECRET }));
    must(await desk.saveProfile({ name: 'op', secret: SECRET, operatorUrl: operator.url }));
    await capture(desk, { body: payBody('d-x'), signature: { secret: 'an-old-secret' }, error: 'timeout' });
    await capture(desk, { body: payBody('d-y'), signature: { secret: 'an-old-secret' }, error: 'timeout' });

    const kept = await redeliver(desk, { filter: { failed: true }, stopOnFailure: true });
    expect(kept).toMatchObject({ sent: 1, ok: 0, failed: 1, stopped: 'failure' });
    expect(kept.failures[0]).toMatchObject({ status: 401 });
    expect(operator.requests.map((r) => r.rawSignatureValid)).toEqual([false]);

    // Re-signing what arrived with a foreign signature would make the operator trust it: refused, and counted, unless asked for.
    const refused = await redeliver(desk, { filter: { failed: true }, signature: 'resign' });
    expect(refused).toMatchObject({ sent: 0, resignRefused: 2, skipped: 2 });
    expect(operator.requests).toHaveLength(1);
    const resigned = await redeliver(desk, { filter: { failed: true }, signature: 'resign', resignInvalid: true });
    expect(resigned).toMatchObject({ sent: 2, ok: 2, failed: 0, signature: 'resign', resignRefused: 0 });
    expect(operator.requests.slice(1).map((r) => [r.rawSignatureValid, r.status])).toEqual([
      [true, 200],
      [true, 200],
    ]);
  });

  it('stops a run on request, and the same run again resumes where it stopped', async () => {
    const desk = openDesk();
    const operator = closeAfterTest(await startOperator({ secret: SECRET }));
    must(await desk.saveProfile({ name: 'op', secret: SECRET, operatorUrl: operator.url }));
    for (let i = 0; i < 6; i++) await capture(desk, { body: payBody(`d-${i}`), signature: { secret: SECRET }, error: 'refused' });
    const off = desk.on((name, payload) => {
      const p = payload as RedeliveryProgress;
      if (name === 'redeliver-progress' && p.runId === 'to-stop' && p.done === 2) void desk.stopRedelivery('to-stop');
    });
    const stopped = await redeliver(desk, { filter: { failed: true }, runId: 'to-stop' });
    off();
    expect(stopped).toMatchObject({ sent: 2, stopped: 'user' });
    expect(must(await desk.stopRedelivery('to-stop'))).toBe(false);
    const resumed = await redeliver(desk, { filter: { failed: true } });
    expect(resumed).toMatchObject({ selected: 6, sent: 4, skipped: 2, ok: 4 });
    expect(operator.requests.map((r) => JSON.parse(r.body.toString()).depositId)).toEqual(['d-0', 'd-1', 'd-2', 'd-3', 'd-4', 'd-5']);
  });

  it('refuses a production profile without confirmation, and re-signing without a secret, before sending', async () => {
    const desk = openDesk();
    const operator = closeAfterTest(await startOperator({ secret: SECRET }));
    must(await desk.saveProfile({ name: 'prod', secret: SECRET, operatorUrl: operator.url, production: true }));
    await capture(desk, { body: payBody('d-p'), signature: { secret: SECRET }, error: 'refused' });
    const refused = await desk.redeliver({ filter: {} });
    expect(refused.ok ? null : refused.error.code).toBe('needs-confirmation');
    expect(operator.requests).toHaveLength(0);
    expect(await redeliver(desk, { filter: {}, confirmedProduction: true })).toMatchObject({ sent: 1, ok: 1 });
    must(await desk.saveProfile({ name: 'nosecret', callbackPrefix: '/nosecret', operatorUrl: operator.url }));
    const noSecret = await desk.redeliver({ filter: { again: true }, profile: 'nosecret', signature: 'resign' });
    expect(noSecret.ok ? null : noSecret.error.code).toBe('no-secret');
    const badRate = await desk.redeliver({ filter: {}, profile: 'nosecret', rate: 0 });
    expect(badRate.ok ? null : badRate.error.code).toBe('bad-input');
    expect(operator.requests).toHaveLength(1);
  });
});
