// Promise 4, in the desk and the web mode: canary secrets (a signing secret, an API key, a second profile's
// secret, and a secret and a key given for one call only) go through every feature: capture with
// verification and diagnosis, replay in every signature mode, send, edge cases, the conformance check,
// token requests (one to a service that echoes the key back), cURL, HAR export and import, the ticket
// bundle, check report exports. Afterwards no file of the data directory (database, WAL, shm, key file),
// no export, no DeskApi result, no event (what IPC and the event stream carry), no web API answer and no
// console output holds any canary, in clear, hex or base64. The CLI's side: secrets-cli.test.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWebUi, type WebUi } from '../../src-main/cli/web';
import { createDesk, type Desk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import type { Draft, SignatureMode } from '../../src-main/shared/model';
import { startOperator, type StandInOperator } from '../helpers/operator';
import { tempDirForSuite } from '../helpers/temp';
import { send, startProxy } from '../integration/proxy/helpers';
import { OPERATOR_ID, startTokenEndpoint, type TokenEndpoint } from '../integration/token/token-endpoint';
import { apiCall, resultOf, tokenOf } from '../integration/web/http-raw';
import { filePlaces, leaks } from './helpers/canary';
import { ALL_CANARIES, CANARY_API_KEY, CANARY_ENV_API_KEY, CANARY_ENV_SECRET, CANARY_OTHER_SECRET, CANARY_SECRET } from './helpers/canaries';

let home: { dir: string; remove(): void };
let exportsDir: { dir: string; remove(): void };
let desk: Desk;
let web: WebUi;
let operator: StandInOperator;
let endpoint: TokenEndpoint;
/** Everything that left the desk toward a user: results, events, web answers, console lines. */
const outputs: Array<{ label: string; bytes: string }> = [];
const consoleSpies: Array<ReturnType<typeof vi.spyOn>> = [];

function keep<T>(label: string, result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  outputs.push({ label, bytes: JSON.stringify(result) });
  if (!result.ok) throw new Error(`${label}: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

beforeAll(async () => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) consoleSpies.push(vi.spyOn(console, method));
  home = tempDirForSuite('wager-desk-canary-');
  exportsDir = tempDirForSuite('wager-desk-canary-exports-');
  operator = await startOperator({ secret: CANARY_SECRET });
  endpoint = await startTokenEndpoint(CANARY_API_KEY);
  desk = createDesk({ home: home.dir });
  desk.on((name, payload) => outputs.push({ label: `event ${name}`, bytes: JSON.stringify(payload) }));
  const rendererDir = join(exportsDir.dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Wager Desk</title>');
  web = await startWebUi(desk, { port: 0, rendererDir });
});

afterAll(async () => {
  for (const spy of consoleSpies) spy.mockRestore();
  await web?.close();
  await desk?.close();
  await operator?.close();
  await endpoint?.close();
  home?.remove();
  exportsDir?.remove();
});

describe('secrets stay secret (desk, web mode, files)', () => {
  it('no canary anywhere after every feature ran with it', { timeout: 30_000 }, async () => {
    // Profiles: the canary one (active) and another, whose secret the diagnosis should name by profile only.
    keep(
      'saveProfile',
      await desk.saveProfile({
        name: 'canary',
        secret: CANARY_SECRET,
        apiKey: CANARY_API_KEY,
        operatorUrl: operator.url,
        baseUrl: endpoint.url,
        operatorId: OPERATOR_ID,
      }),
    );
    keep('saveProfile other', await desk.saveProfile({ name: 'other', callbackPrefix: '/other', secret: CANARY_OTHER_SECRET }));
    keep('useProfile', await desk.useProfile('canary'));
    keep('duplicateProfile', await desk.duplicateProfile('canary', 'copy'));

    // The event stream, open from the start: what the web page would receive.
    const controller = new AbortController();
    const stream = await fetch(`http://127.0.0.1:${web.port}/api/events`, {
      headers: { authorization: `Bearer ${tokenOf(web.url)}` },
      signal: controller.signal,
    });
    let streamed = '';
    const reading = (async () => {
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          streamed += value;
        }
      } catch {
        // aborted at the end
      }
    })();

    // Capture with verification: valid, signed with the other profile's secret, re-serialized, unsigned.
    const { url } = await startProxy(desk);
    const body = (depositId: string, extra = '') => `{"userId":"u-1","depositId":"${depositId}","currency":"USD","amount":5${extra}}`;
    const captures: Array<{ path: string; body: string; header?: string }> = [
      { path: '/platform/pay', body: body('d-valid'), header: sign(Buffer.from(body('d-valid')), CANARY_SECRET) },
      { path: '/platform/pay', body: body('d-other'), header: sign(Buffer.from(body('d-other')), CANARY_OTHER_SECRET) },
      { path: '/platform/pay', body: JSON.stringify(JSON.parse(body('d-pretty')), null, 2), header: sign(Buffer.from(body('d-pretty')), CANARY_SECRET) },
      { path: '/platform/pay', body: body('d-unsigned') },
      {
        path: '/platform/results',
        body: `{"result":"WIN","userId":"u-1","depositId":"d-valid","roomId":"r","gameId":"solitaire","currency":"USD","amount":10}`,
      },
    ];
    captures[4]!.header = sign(Buffer.from(captures[4]!.body), CANARY_SECRET);
    for (const c of captures) {
      const reply = await send(url, {
        path: c.path,
        body: c.body,
        headers: { 'content-type': 'application/json', ...(c.header ? { 'x-server-authorization': c.header } : {}) },
      });
      outputs.push({ label: `proxy answer ${c.path}`, bytes: reply.body.toString('latin1') + JSON.stringify(reply.headers) });
    }
    const page = keep('listExchanges', await desk.listExchanges({ direction: 'inbound' }));
    const verdictOf = (d: string, kind = 'pay') => page.items.find((x) => x.depositId === d && x.kind === kind)?.signature.verdict;
    expect([verdictOf('d-valid'), verdictOf('d-other'), verdictOf('d-pretty'), verdictOf('d-unsigned'), verdictOf('d-valid', 'results')]).toEqual([
      'valid',
      'mismatch',
      'mismatch',
      'missing',
      'valid',
    ]);
    const byDeposit = (d: string) => page.items.find((x) => x.depositId === d && x.kind === 'pay')!.id;
    const other = keep('getExchange other', await desk.getExchange(byDeposit('d-other')));
    expect(other.signature.diagnosis?.match?.profile).toBe('other');

    // Replay in every mode, send, previews, cURL for drafts with a secret given for the call only.
    const source = byDeposit('d-valid');
    const modes: SignatureMode[] = ['resign', 'keep', 'none', 'invalid'];
    for (const signature of modes) keep(`replay ${signature}`, await desk.replay({ sourceId: source, signature }));
    keep('replay custom', await desk.replay({ sourceId: source, signature: 'custom', customSecret: CANARY_ENV_SECRET }));
    keep('replay follow-up', await desk.replay({ sourceId: source, followUp: 'LOSE' }));
    const draft: Draft = keep('draftTemplate', await desk.draftTemplate('win', 'u-1'));
    keep('send', await desk.send({ draft }));
    keep('send custom', await desk.send({ draft, signature: 'custom', customSecret: CANARY_ENV_SECRET }));
    for (const signature of [...modes, 'custom'] as SignatureMode[]) {
      const options = signature === 'custom' ? { customSecret: CANARY_ENV_SECRET } : {};
      keep(`previewSignature ${signature}`, await desk.previewSignature(draft, signature, options));
      keep(`curlForDraft ${signature}`, await desk.curlForDraft(draft, { signature, ...options }));
    }
    keep('inspectDraft', await desk.inspectDraft(draft));
    keep('draftFromExchange', await desk.draftFromExchange(source));
    keep('draftFollowUp', await desk.draftFollowUp(source, 'REFUND'));

    // Edge cases and the conformance check, with the profile's secret and with a one-call secret.
    for (const edge of keep('listEdgeCases', await desk.listEdgeCases()).slice(0, 4)) keep(`runEdgeCase ${edge.id}`, await desk.runEdgeCase(edge.id, {}));
    const report = keep('runCheck', await desk.runCheck({ userId: 'u-check' }));
    keep('runCheck custom', await desk.runCheck({ userId: 'u-check-2', customSecret: CANARY_ENV_SECRET }));
    const markdown = keep('exportCheckReport md', await desk.exportCheckReport(report.id, 'markdown'));
    const reportJson = keep('exportCheckReport json', await desk.exportCheckReport(report.id, 'json'));
    const reportJUnit = keep('exportCheckReport junit', await desk.exportCheckReport(report.id, 'junit'));
    const reportHtml = keep('exportCheckReport html', await desk.exportCheckReport(report.id, 'html'));

    // Tokens: the stored key, a key given for the call, a service that echoes the key back.
    keep('requestToken', await desk.requestToken({ userId: 'u-1', displayName: 'One' }));
    keep('requestToken explicit', await desk.requestToken({ userId: 'u-1', displayName: 'One', apiKey: CANARY_ENV_API_KEY }));
    endpoint.mode = 'echo-key';
    keep('requestToken echo', await desk.requestToken({ userId: 'u-2', displayName: 'Two' }));
    keep('requestToken echo explicit', await desk.requestToken({ userId: 'u-2', displayName: 'Two', apiKey: CANARY_ENV_API_KEY }));
    endpoint.mode = 'ok';
    keep('listTokenHistory', await desk.listTokenHistory());
    expect(endpoint.seen.map((s) => s.headers['x-api-key'])).toEqual([CANARY_API_KEY, CANARY_ENV_API_KEY, CANARY_API_KEY, CANARY_ENV_API_KEY]);

    // Exports: HAR of everything (imported back too), a ticket, cURL of every exchange.
    const har = keep('exportHar', await desk.exportHar({ direction: 'all', limit: 1000 }));
    keep('importHar', await desk.importHar(har, { origin: 'canary.har' }));
    const ticket = keep('ticketBundle', await desk.ticketBundle('d-valid'));
    writeFileSync(join(exportsDir.dir, 'export.har'), har);
    writeFileSync(join(exportsDir.dir, 'ticket.md'), ticket);
    writeFileSync(join(exportsDir.dir, 'report.md'), markdown);
    writeFileSync(join(exportsDir.dir, 'report.json'), reportJson);
    writeFileSync(join(exportsDir.dir, 'report.junit.xml'), reportJUnit);
    writeFileSync(join(exportsDir.dir, 'report.html'), reportHtml);
    const all = keep('listExchanges all', await desk.listExchanges({ direction: 'all', limit: 1000 }));
    for (const x of all.items) {
      keep(`getExchange ${x.id}`, await desk.getExchange(x.id));
      keep(`curlFor ${x.id}`, await desk.curlFor(x.id));
    }
    keep('diffExchanges', await desk.diffExchanges(source, all.items[0]!.id));
    keep('getTimeline', await desk.getTimeline('d-valid'));
    keep('getStatus', await desk.getStatus());
    keep('listProfiles', await desk.listProfiles());
    keep('getSandboxState', await desk.getSandboxState());
    keep('listCheckReports', await desk.listCheckReports());
    keep('getCheckReport', await desk.getCheckReport(report.id));

    // The web mode: every read method over HTTP, as the page calls it.
    const token = tokenOf(web.url);
    const reads: Array<[string, unknown[]]> = [
      ['getStatus', []],
      ['listExchanges', [{ direction: 'all', limit: 1000 }]],
      ['getTimeline', ['d-valid']],
      ['diffExchanges', [source, all.items[0]!.id]],
      ['draftFromExchange', [source]],
      ['previewSignature', [draft, 'resign', {}]],
      ['curlForDraft', [draft, { signature: 'resign' }]],
      ['listEdgeCases', []],
      ['listCheckReports', []],
      ['getCheckReport', [report.id]],
      ['exportCheckReport', [report.id, 'markdown']],
      ['exportCheckReport', [report.id, 'junit']],
      ['exportCheckReport', [report.id, 'html']],
      ['listTokenHistory', []],
      ['listProfiles', []],
      ['getSandboxState', []],
      ['exportHar', [{ direction: 'all', limit: 1000 }]],
      ['ticketBundle', ['d-valid']],
      ...all.items.flatMap((x): Array<[string, unknown[]]> => [
        ['getExchange', [x.id]],
        ['curlFor', [x.id]],
      ]),
    ];
    for (const [method, args] of reads) {
      const res = await apiCall(web.port, method, args, { authorization: `Bearer ${token}` });
      expect(res.status, method).toBe(200);
      expect((await resultOf(res, method)).ok, `${method} ${res.body.slice(0, 200)}`).toBe(true);
      outputs.push({ label: `web ${method} ${JSON.stringify(args).slice(0, 40)}`, bytes: res.body + JSON.stringify(res.headers) });
    }
    controller.abort();
    await reading;
    outputs.push({ label: 'event stream', bytes: streamed });
    expect(streamed).toContain('event: exchange');

    // The canaries were really used: the operator verified the canary signatures, the endpoint got the keys.
    expect(operator.requests.some((r) => r.rawSignatureValid)).toBe(true);
    expect(operator.requests.some((r) => r.headers['x-server-authorization'] === sign(r.body, CANARY_ENV_SECRET))).toBe(true);

    for (const spy of consoleSpies) for (const call of spy.mock.calls) outputs.push({ label: 'console', bytes: call.map(String).join(' ') });
    expect(outputs.length).toBeGreaterThan(100);
    expect(leaks(outputs, ALL_CANARIES)).toEqual([]);
    expect(leaks(filePlaces(exportsDir.dir), ALL_CANARIES)).toEqual([]);
    // While the desk is open the WAL holds the recent writes; after the close they are in the database.
    const openFiles = filePlaces(home.dir);
    expect(openFiles.map((f) => f.label).some((f) => f.endsWith('-wal'))).toBe(true);
    expect(leaks(openFiles, ALL_CANARIES)).toEqual([]);
    await web.close();
    await desk.close();
    expect(leaks(filePlaces(home.dir), ALL_CANARIES)).toEqual([]);
  });

  it('the search finds a canary where there is one, in each encoding it looks for', () => {
    const secret = CANARY_SECRET;
    const places = [
      { label: 'clear', bytes: `x=${secret}` },
      { label: 'hex', bytes: Buffer.from(`..${secret}..`).toString('hex') },
      { label: 'base64 shifted', bytes: Buffer.from(`a${secret}b`).toString('base64') },
      { label: 'base64url shifted', bytes: Buffer.from(`ab${secret}`).toString('base64url') },
      { label: 'utf16', bytes: Buffer.from(secret, 'utf16le') },
    ];
    expect(leaks(places, [secret]).length).toBe(places.length);
    expect(leaks([{ label: 'fingerprint only', bytes: `[redacted sha256:${'0'.repeat(8)}]` }], [secret])).toEqual([]);
  });
});
