// HAR files written by other tools, in their own shapes (fixtures written by hand after each tool's
// exporter): each entry becomes an inbound capture with the exact bytes, verified and inspected.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { must } from '../../helpers/must';
import { sign } from '../../../src-main/core/signing';
import type { ExchangeDetail } from '../../../src-main/shared/model';
import { closeAfterTest } from '../../helpers/closing';
import { startRecorder } from '../../helpers/servers';
import { tempDirForSuite } from '../../helpers/temp';
import { exchangeOf } from '../../helpers/log-reads';

const fixtures = fileURLToPath(new URL('../../fixtures/har/', import.meta.url));
const read = (name: string) => readFileSync(`${fixtures}${name}`, 'utf8');
const expected = JSON.parse(read('expected-bodies.json')) as Record<string, string>;
const bytes = (key: string) => Buffer.from(expected[key]!, 'base64');

let desk: Desk;
let remove: () => void;

beforeEach(async () => {
  const temp = tempDirForSuite();
  remove = temp.remove;
  desk = createDesk({ home: temp.dir });
  const saved = await desk.saveProfile({ name: 'fixtures', secret: expected.secret! });
  expect(saved.ok).toBe(true);
});

afterEach(async () => {
  await desk.close();
  remove();
});

async function importFile(name: string): Promise<ExchangeDetail[]> {
  const result = await desk.importHar(read(name), { origin: name });
  if (!result.ok) throw new Error(result.error.message);
  return Promise.all(result.value.ids.map((id) => exchangeOf(desk, id)));
}

const body = (x: ExchangeDetail) => Buffer.from(x.request.bodyBase64, 'base64');
const resBody = (x: ExchangeDetail) => Buffer.from(x.response!.bodyBase64, 'base64');

describe('importing HAR files from other tools', () => {
  it('reads Chromium DevTools exports: HTTP/1.1 and HTTP/2 entries, base64 responses, failed requests', async () => {
    const [pay, win, icon] = await importFile('chrome-devtools.har');
    expect(pay!.kind).toBe('pay');
    expect(body(pay!).equals(bytes('chromePay'))).toBe(true);
    expect(pay!.signature.verdict).toBe('valid');
    expect(pay!.depositId).toBe('dep-chrome-1');
    expect(pay!.request.headers[0]).toEqual(['Accept', '*/*']);
    expect(pay!.response?.status).toBe(200);
    expect(pay!.durationMs).toBeCloseTo(12.84);
    expect(pay!.tags).toEqual(['har:WebInspector', 'file:chrome-devtools.har']);

    // HTTP/2: pseudo-headers are the request line, not headers; the path and query come from the URL as written.
    expect(win!.request.headers.map(([n]) => n)).toEqual(['content-type', 'x-server-authorization']);
    expect([win!.request.path, win!.request.query]).toEqual(['/platform/results', 'trace=a%20b']);
    expect(win!.at).toBe('2025-03-04T09:00:05.000Z');
    expect(win!.kind).toBe('results');
    expect(win!.result).toBe('WIN');
    expect(win!.signature.verdict).toBe('valid');
    expect(resBody(win!).equals(bytes('gif'))).toBe(true);

    // A page resource: not a callback, so no signature verdict; status 0 means no answer.
    expect(icon!.kind).toBe('other');
    expect(icon!.signature.verdict).toBeNull();
    expect(icon!.response).toBeNull();
    expect(icon!.error).toBe('net::ERR_CONNECTION_REFUSED');
  });

  it('reads HTTP Toolkit exports, including a binary request body kept as _content', async () => {
    const [pay, results] = await importFile('http-toolkit.har');
    expect(body(pay!).equals(bytes('htkBinaryPay'))).toBe(true);
    expect(pay!.signature.verdict).toBe('valid');
    expect(pay!.request.path).toBe('/api/platform/pay');
    expect(pay!.findings.some((f) => f.level === 'error')).toBe(true);
    expect(pay!.response?.status).toBe(402);
    expect(body(results!).equals(bytes('htkResults'))).toBe(true);
    expect(results!.signature.verdict).toBe('mismatch');
    expect(results!.signature.diagnosis?.match?.variant).toBe('pretty-2');
    expect(results!.result).toBe('LOSE');
  });

  it('reads mitmproxy exports: null timings, base64 response content, a flow without a response', async () => {
    const [pay, killed] = await importFile('mitmproxy.har');
    expect(body(pay!).equals(bytes('mitmPay'))).toBe(true);
    expect(pay!.signature.verdict).toBe('valid');
    expect(pay!.tournamentId).toBe('3f1c2b7a-9d4e-4c1a-8f2b-6a7e9c0d1e2f');
    expect(pay!.at).toBe('2025-03-06T08:30:00.123Z');
    expect(resBody(pay!).equals(bytes('mitmGzip'))).toBe(true);
    expect(pay!.response?.headers).toContainEqual(['Content-Encoding', 'gzip']);
    expect(killed!.response).toBeNull();
    expect(killed!.error).toBe('Connection killed.');
    expect(killed!.signature.verdict).toBe('missing');
    expect(killed!.findings.some((f) => f.level === 'error')).toBe(true);
  });

  it("reads an operator's hand-written log with a base64 request body (postData.encoding)", async () => {
    const [pay] = await importFile('operator-log.har');
    expect(body(pay!).equals(bytes('operatorBody'))).toBe(true);
    expect(pay!.signature.verdict).toBe('valid');
    expect(pay!.response?.status).toBe(500);
    expect(pay!.tags).toContain('har:acme-operator-gateway');
  });

  it('makes imported entries replayable like captures: the exact bytes and signature reach an operator', async () => {
    const [pay] = await importFile('http-toolkit.har');
    const operator = closeAfterTest(await startRecorder((_req, _body, res) => res.end('{}')));
    const sent = must(await desk.replay({ sourceId: pay!.id, to: operator.url, signature: 'keep' }));
    expect(sent.response?.status).toBe(200);
    const received = operator.received;
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe('/api/platform/pay');
    expect(received[0]!.body.equals(bytes('htkBinaryPay'))).toBe(true);
    expect(received[0]!.headers['x-server-authorization']).toBe(sign(bytes('htkBinaryPay'), expected.secret!));
  });

  it('lists imported entries with the captures, and their deposit timelines', async () => {
    await importFile('chrome-devtools.har');
    const page = await desk.listExchanges({ depositId: 'dep-chrome-1' });
    expect(page.ok && page.value.items.map((x) => x.kind)).toEqual(['results', 'pay']);
    const timeline = await desk.getTimeline('dep-chrome-1');
    expect(timeline.ok && timeline.value.flags).toEqual([]);
  });
});
