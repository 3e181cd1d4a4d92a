// One judge: the same request, taken in through each of the four ways (the capture proxy, a HAR import,
// an outbound send, the test helper), becomes the same row. What legitimately differs, and only that:
// - direction (outbound for a send), origin, at, target (the URL a send went to), remoteAddress
//   (the proxy's and the helper's peer; none for a HAR entry or a send), tags (a HAR import tags its rows);
// - the order of a send's headers: Content-Length goes last, as it went on the wire;
// - the response (each way has its own other party), and the findings the proxy's sandbox operator
//   adds about its own answer ("sandbox operator: ..."), which are the answerer's, not the judge's.
// Everything judged is equal: kind, method, path, query, headers (redacted), body, size, truncated,
// the verdict with its notes and diagnosis, the findings, the error count and every key field.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureDepsOf, logOf, secretsOf } from '../../helpers/desk';
import { sendAndRecord } from '../../../src-main/core/outbound/record';
import { storedSecrets } from '../../../src-main/core/redact';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { sign } from '../../../src-main/core/signing';
import type { ExchangeDetail, HeaderList } from '../../../src-main/shared/model';
import { capture } from '../../helpers/captures';
import { rawRoundTrip } from '../../helpers/raw-socket';
import { startRecorder, type Recorder } from '../../helpers/servers';
import { tempDirForSuite } from '../../helpers/temp';
import { startProxy, type RunningProxy } from '../proxy/helpers';
import { exchangeOf, newestExchangeOf } from '../../helpers/log-reads';

const SECRET = 'four-ways-signing-secret-8c1f';
const API_KEY = 'four-ways-api-key-77d0e2';
const OTHER = 'four-ways-other-secret-41aa';

let home: { dir: string; remove(): void };
let desk: Desk;
let proxy: RunningProxy;
let upstream: Recorder;

beforeAll(async () => {
  home = tempDirForSuite('wager-desk-four-ways-');
  desk = createDesk({ home: home.dir });
  const saved = await desk.saveProfile({ name: 'main', secret: SECRET, apiKey: API_KEY });
  if (!saved.ok) throw new Error(saved.error.message);
  await desk.saveProfile({ name: 'other', callbackPrefix: '/other', secret: OTHER });
  await desk.useProfile('main');
  // Serving main alone, the proxy judges every path as main's (with two profiles, a path under neither would be refused 404).
  proxy = await startProxy(desk, { profile: 'main' });
  upstream = await startRecorder();
});

afterAll(async () => {
  await desk?.close();
  await upstream?.close();
  home?.remove();
});

interface Case {
  path: string;
  query: string;
  body: string;
  signature: 'valid' | 'other-secret' | 'wrong' | 'the-secret' | 'none';
  extra: HeaderList;
}

function signatureOf(c: Case): string | null {
  const bytes = Buffer.from(c.body, 'utf8');
  switch (c.signature) {
    case 'valid':
      return sign(bytes, SECRET);
    case 'other-secret':
      return sign(bytes, OTHER);
    case 'wrong':
      return '0'.repeat(64);
    case 'the-secret':
      return SECRET;
    case 'none':
      return null;
  }
}

function headersOf(c: Case): HeaderList {
  const sig = signatureOf(c);
  return [
    ['Host', '127.0.0.1:8080'],
    ['Content-Type', 'application/json'],
    ['Content-Length', String(Buffer.byteLength(c.body))],
    ...(sig !== null ? ([['x-server-authorization', sig]] as HeaderList) : []),
    ...c.extra,
  ];
}

const target = (c: Case): string => (c.query === '' ? c.path : `${c.path}?${c.query}`);

async function viaProxy(c: Case): Promise<ExchangeDetail> {
  const head = [`POST ${target(c)} HTTP/1.1`, ...headersOf(c).map(([n, v]) => `${n}: ${v}`)].join('\r\n');
  await rawRoundTrip(proxy.port, `${head}\r\n\r\n${c.body}`, { firstAnswerOnly: true });
  return newest('inbound');
}

async function viaHar(c: Case): Promise<ExchangeDetail> {
  const entry = {
    startedDateTime: new Date().toISOString(),
    time: 1,
    request: {
      method: 'POST',
      url: `http://127.0.0.1:8080${target(c)}`,
      httpVersion: 'HTTP/1.1',
      headers: headersOf(c).map(([name, value]) => ({ name, value })),
      queryString: [],
      postData: { mimeType: 'application/json', text: c.body },
      headersSize: -1,
      bodySize: Buffer.byteLength(c.body),
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [],
      content: { size: 0, mimeType: 'text/plain', text: '' },
      headersSize: -1,
      bodySize: 0,
    },
  };
  const imported = await desk.importHar(JSON.stringify({ log: { version: '1.2', creator: { name: 'four-ways', version: '1' }, entries: [entry] } }), {});
  if (!imported.ok) throw new Error(imported.error.message);
  return await exchangeOf(desk, imported.value.ids[0]!);
}

async function viaSend(c: Case): Promise<ExchangeDetail> {
  return sendAndRecord(
    {
      log: logOf(desk),
      candidates: secretsOf(desk).signingCandidates(),
      secrets: storedSecrets(featureDepsOf(desk)),
    },
    {
      request: {
        url: `${upstream.url}${target(c)}`,
        method: 'POST',
        headers: headersOf(c),
        body: Buffer.from(c.body, 'utf8'),
        timeoutMs: 5_000,
        allowSelfSigned: false,
      },
      origin: 'send',
      sourceId: null,
    },
  );
}

async function viaHelper(c: Case): Promise<ExchangeDetail> {
  const id = await capture(desk, { body: c.body, path: c.path, query: c.query, signature: signatureOf(c), extraHeaders: c.extra, host: '127.0.0.1:8080' });
  return await exchangeOf(desk, id);
}

function newest(direction: 'inbound' | 'outbound'): Promise<ExchangeDetail> {
  return newestExchangeOf(desk, { direction });
}

/** The row without what legitimately differs between the ways in (see the file's head). */
function judged(x: ExchangeDetail, sortHeaders = false) {
  const headers = [...x.request.headers];
  if (sortHeaders) headers.sort((a, b) => a[0].localeCompare(b[0]));
  return {
    kind: x.kind,
    method: x.request.method,
    path: x.path,
    query: x.request.query,
    headers,
    body: x.request.bodyBase64,
    size: x.request.size,
    truncated: x.truncated,
    signature: x.signature,
    findings: x.findings.filter((f) => !f.message.startsWith('sandbox operator:')),
    errorCount: x.findings.filter((f) => !f.message.startsWith('sandbox operator:') && f.level === 'error').length,
    keys: [x.depositId, x.userId, x.result, x.gameId, x.amount, x.currency, x.tournamentId],
  };
}

const word = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
const caseArb: fc.Arbitrary<Case> = fc.record({
  path: fc.constantFrom('/platform/pay', '/platform/results', '/api/platform/pay', '/v0/wager/operator/create-token', '/health', `/keys/${API_KEY}`),
  query: fc.constantFrom('', 'a=1', `key=${API_KEY}`, `key=${encodeURIComponent(SECRET)}&b=2`),
  body: fc.oneof(
    fc
      .record({ userId: word, depositId: word, amount: fc.integer({ min: -5, max: 500 }), currency: fc.constantFrom('USD', 'EUR', 'usd') })
      .map((o) => JSON.stringify(o)),
    fc
      .record({ userId: word, depositId: word, result: fc.constantFrom('WIN', 'LOSE', 'REFUND', 'BOGUS'), amount: fc.integer({ min: 0, max: 50 }) })
      .map((o) => JSON.stringify(o)),
    fc.constantFrom(
      '{"userId":"u","userId":"v","depositId":"d","amount":1,"currency":"USD"}',
      'not json',
      '',
      `{"userId":"${API_KEY}","depositId":"d","amount":1,"currency":"USD"}`,
    ),
  ),
  signature: fc.constantFrom('valid', 'other-secret', 'wrong', 'the-secret', 'none'),
  extra: fc.constantFrom<HeaderList>(
    [],
    [['X-Note', 'hello']],
    [['Authorization', `Basic ${Buffer.from(`op:${API_KEY}`).toString('base64')}`]],
    [['X-Forward-Key', API_KEY]],
  ),
});

describe('one judge, four ways in', () => {
  it('gives equal rows for equal input', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const proxied = judged(await viaProxy(c));
        expect(judged(await viaHar(c))).toEqual(proxied);
        expect(judged(await viaHelper(c))).toEqual(proxied);
        expect(judged(await viaSend(c), true)).toEqual({ ...proxied, headers: [...proxied.headers].sort((a, b) => a[0].localeCompare(b[0])) });
        // And the judgment holds no stored secret in clear, whichever way it came.
        const text = JSON.stringify(proxied);
        for (const secret of [SECRET, API_KEY, OTHER]) expect(text).not.toContain(secret);
      }),
      { numRuns: 25 },
    );
  });
});
