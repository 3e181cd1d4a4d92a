// The adversarial property: a stored secret (the signing secret, the previous one, the API key, each
// part of a balance probe's credentials) is
// planted in a random place of a request (a header name or value, the method, the target path, the
// query, an Expect value, a JSON string of the body, the raw body) or of an answer (a stand-in
// upstream's or token endpoint's headers and body), in a random form (plain, base64 or base64url at a
// random alignment, hex in either case, percent-encoded once or twice, wholly or partly, `\u`-escaped),
// sent through the real proxy (sandbox mode, and forward mode to an upstream that echoes what it got,
// encoded) or the token client. After each case no stored byte (the database and its WAL), no detail
// (what `show --json` prints) and no list holds any form of any secret; at the end neither does the
// HAR export, nor anything written to the console.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Desk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { openDesk, storeOf } from '../helpers/desk';
import { must } from '../helpers/must';
import { rawRoundTrip } from '../helpers/raw-socket';
import { closeServer, listen } from '../helpers/servers';
import { tempDir } from '../helpers/temp';
import { startProxy } from '../integration/proxy/helpers';
import { filePlaces } from './helpers/canary';
import { secretLeaks } from './helpers/secret-oracle';

const CURRENT = 'plant-Sign/8f+Kq2Lm9Zx';
const PREVIOUS = 'plant_prev.Wd4Rt7Yu1Io';
const API_KEY = 'plant~apik-Hj5Nm3Bv6Cx';
// The balance probe's credentials, each part a secret of its own: a bearer token (sent alone, without
// its scheme), Basic's user, password and the base64 of user:password, a key in the balance URL's query.
const PROBE_TOKEN = 'plant-bear.Tq8Wx2Ev5Rb';
const PROBE_USER = 'plant-user-Gy6Hu3Ji9';
const PROBE_PASSWORD = 'plant-pass!Kl4Zx7Cv1';
const PROBE_BASIC = Buffer.from(`${PROBE_USER}:${PROBE_PASSWORD}`).toString('base64');
const PROBE_QUERY_KEY = 'plant-qkey-Bn2Mq5Wr8';
const SECRETS = [CURRENT, PREVIOUS, API_KEY, PROBE_TOKEN, PROBE_USER, PROBE_PASSWORD, PROBE_BASIC, PROBE_QUERY_KEY];
/** The balance URL is a profile's setting, stored as given: its query key is looked for everywhere but the profile's own row. */
const IN_FILES = SECRETS.filter((s) => s !== PROBE_QUERY_KEY);

const FORMS = ['raw', 'b64', 'b64url', 'hex', 'HEX', 'pct', 'PCT', 'uri', 'pct2', 'uri2', 'pct-part', '\\u', '\\U', '\\u-part'] as const;
type Form = (typeof FORMS)[number];
const PLACES = ['header-value', 'header-name', 'method', 'path', 'query', 'expect', 'json-string', 'raw-body', 'answer-header', 'answer-body'] as const;

interface Plant {
  secret: number;
  form: Form;
  /** Bytes before and after the secret in an encoded stream (base64 alignment), and around it in text. */
  before: string;
  after: string;
}

const every = (raw: Buffer, f: (b: number) => string): string => [...raw].map(f).join('');
const pctByte = (prefix: string, upper: boolean) => (b: number) => `%${prefix}${b.toString(16).padStart(2, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`;
const uEscape = (upper: boolean) => (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`;

/** The planted text: the secret in its form, with the surrounding bytes inside the encoding where it has one. */
function planted(p: Plant): string {
  const secret = SECRETS[p.secret]!;
  const raw = Buffer.from(secret);
  const around = Buffer.from(p.before + secret + p.after);
  switch (p.form) {
    case 'raw':
      return secret;
    case 'b64':
      return around.toString('base64');
    case 'b64url':
      return around.toString('base64url');
    case 'hex':
      return raw.toString('hex');
    case 'HEX':
      return raw.toString('hex').toUpperCase();
    case 'pct':
      return every(raw, pctByte('', false));
    case 'PCT':
      return every(raw, pctByte('', true));
    case 'uri':
      return encodeURIComponent(secret);
    case 'pct2':
      return every(raw, pctByte('25', true));
    case 'uri2':
      return encodeURIComponent(encodeURIComponent(secret));
    case 'pct-part':
      return `${secret.slice(0, 5)}${pctByte('', false)(secret.charCodeAt(5))}${secret.slice(6)}`;
    case '\\u':
      return [...secret].map(uEscape(false)).join('');
    case '\\U':
      return [...secret].map(uEscape(true)).join('');
    case '\\u-part':
      return `${secret.slice(0, 7)}${uEscape(false)(secret[7]!)}${secret.slice(8)}`;
  }
}

const plantArb: fc.Arbitrary<Plant> = fc.record({
  secret: fc.integer({ min: 0, max: SECRETS.length - 1 }),
  form: fc.constantFrom(...FORMS),
  before: fc.stringMatching(/^[a-z0-9]{0,5}$/),
  after: fc.stringMatching(/^[a-z0-9]{0,5}$/),
});

const caseArb = fc.record({
  via: fc.constantFrom('sandbox', 'forward', 'token'),
  place: fc.constantFrom(...PLACES),
  plant: plantArb,
  /** How the stand-in upstream echoes the request back: as is, base64, hex (with a random lead, for alignment). */
  echo: fc.constantFrom('plain', 'base64', 'hex'),
  lead: fc.stringMatching(/^[a-z]{0,2}$/),
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** The raw request a case sends: a signed pay with the planted text in its place. */
function requestOf(c: Case, n: number): string {
  const text = planted(c.plant);
  const deposit = c.place === 'json-string' && !c.plant.form.startsWith('pct') && !c.plant.form.startsWith('uri') ? `d-${n}-${text}` : `d-${n}`;
  const json = `{"userId":"u-${n}","depositId":"${c.place === 'json-string' ? deposit : `d-${n}`}","currency":"USD","amount":1${c.place === 'json-string' ? `,"note":"${c.plant.before} ${text} ${c.plant.after}"` : ''}}`;
  const body = c.place === 'raw-body' ? `${c.plant.before} ${text} ${c.plant.after}` : json;
  const method = c.place === 'method' ? text : 'POST';
  const path = c.place === 'path' ? `/k/${text}/platform/pay` : '/platform/pay';
  const query = c.place === 'query' ? `?q=${text}&n=${n}` : `?n=${n}`;
  const headers = [
    `${method} ${path}${query} HTTP/1.1`,
    'Host: x',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `x-server-authorization: ${sign(Buffer.from(body), CURRENT)}`,
    `x-case: ${n}`,
  ];
  if (c.place === 'header-value') headers.push(`X-Planted: ${c.plant.before} ${text}`);
  if (c.place === 'header-name') headers.push(`${text}: 1`);
  if (c.place === 'expect') headers.push(`Expect: ${text}`);
  // The stand-in answers with the plant when the place is in the answer (the request names it, not the secret).
  if (c.place === 'answer-header' || c.place === 'answer-body') headers.push(`x-plant: ${JSON.stringify(c.plant)}`, `x-plant-in: ${c.place}`);
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

/** An answer for a stand-in: the request echoed back (encoded), and a plant the request asked for. */
function answer(req: IncomingMessage, body: Buffer, res: ServerResponse, c: { echo: string; lead: string }): void {
  const seen = Buffer.concat([Buffer.from(c.lead), Buffer.from(JSON.stringify(req.rawHeaders)), Buffer.from(req.url ?? ''), body]);
  const echoed = c.echo === 'base64' ? seen.toString('base64') : c.echo === 'hex' ? seen.toString('hex') : seen.toString('latin1');
  const headers: Record<string, string> = {
    'content-type': 'text/html',
    'x-echo-url': c.echo === 'plain' ? encodeURIComponent(req.url ?? '') : echoed.slice(0, 4000),
  };
  let out = `<html><body><p>${echoed}</p>`;
  const plant = req.headers['x-plant'];
  if (typeof plant === 'string') {
    const text = planted(JSON.parse(plant) as Plant);
    if (req.headers['x-plant-in'] === 'answer-header') headers['x-planted'] = text;
    else out += `<i>${text}</i>`;
  }
  out += '</body></html>';
  res.writeHead(200, { ...headers, 'content-length': String(Buffer.byteLength(out)) });
  res.end(out);
}

let echo = { echo: 'plain', lead: '' };
let tokenCase: Case | null = null;

function standIn(): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      if (tokenCase && req.url?.endsWith('/create-token')) {
        const text = planted(tokenCase.plant);
        const body = Buffer.from(
          tokenCase.place === 'answer-header' ? '{"token":"t.e.s"}' : `{"token":"t.e.s","echo":"${text}","key":"${String(req.headers['x-api-key'])}"}`,
        );
        const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(body.length) };
        if (tokenCase.place !== 'answer-body') headers['x-echo'] = text;
        res.writeHead(200, headers);
        res.end(body);
        return;
      }
      answer(req, Buffer.concat(chunks), res, echo);
    });
  });
}

/** Every console write while the test runs (the desk's own logs, should it write any). */
function capturedConsole(): { text: () => string; restore: () => void } {
  const seen: string[] = [];
  const restores: Array<() => void> = [];
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      seen.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restores.push(() => (stream.write = write));
  }
  return { text: () => seen.join(''), restore: () => restores.forEach((r) => r()) };
}

async function deskWithSecrets(home: string, base: string): Promise<Desk> {
  const desk = openDesk(home);
  must(
    await desk.saveProfile({
      name: 'p',
      secret: PREVIOUS,
      apiKey: API_KEY,
      operatorId: 'op-1',
      baseUrl: base,
      balanceUrl: `${base}/balance/{userId}?key=${PROBE_QUERY_KEY}`,
      balancePath: '$.balance',
      balanceHeaders: [
        ['Authorization', `Bearer ${PROBE_TOKEN}`],
        ['X-Staging-Auth', `Basic ${PROBE_BASIC}`],
      ],
    }),
  );
  // Rotated: the first secret is kept as the previous one.
  must(await desk.saveProfile({ name: 'p', secret: CURRENT, previousSecret: PREVIOUS }));
  must(await desk.useProfile('p'));
  return desk;
}

async function rowsLeaks(desk: Desk, home: string, from: number): Promise<string[]> {
  const items = storeOf(desk).exchanges.list({ direction: 'all', limit: 1000 }).items;
  const places: Array<{ label: string; bytes: string | Uint8Array }> = [{ label: 'list', bytes: JSON.stringify(items) }];
  for (const x of items.filter((i) => i.id > from)) places.push({ label: `detail ${x.id}`, bytes: JSON.stringify(must(await desk.getExchange(x.id))) });
  places.push({ label: 'sandbox state', bytes: JSON.stringify(must(await desk.getSandboxState())) });
  return [...secretLeaks(places, SECRETS), ...secretLeaks(filePlaces(home), IN_FILES)];
}

const RUNS = 45;

describe('a stored secret planted anywhere, in any form, is never kept', () => {
  it('through the proxy (sandbox and forward) and the token client: no stored byte, detail, export or log holds it', async () => {
    const logs = capturedConsole();
    onTestFinished(logs.restore);
    const server = standIn();
    onTestFinished(() => closeServer(server));
    const base = await listen(server);
    const homes = { sandbox: tempDir(), forward: tempDir() };
    const desks = { sandbox: await deskWithSecrets(homes.sandbox, base), forward: await deskWithSecrets(homes.forward, base) };
    const ports = { sandbox: (await startProxy(desks.sandbox)).port, forward: (await startProxy(desks.forward, { upstream: base })).port };

    let n = 0;
    const counts = { sandbox: 0, forward: 0, token: 0 };
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        n++;
        const via = c.via;
        // Token requests go out of the forward desk (its rows mix both ways).
        const desk = via === 'sandbox' ? desks.sandbox : desks.forward;
        const home = via === 'sandbox' ? homes.sandbox : homes.forward;
        const newest = () => storeOf(desk).exchanges.list({ direction: 'all', limit: 1 }).items[0];
        const before = newest()?.id ?? 0;
        if (via === 'token') {
          tokenCase = c;
          const token = await desk.requestToken({ userId: `u-${n}`, displayName: 'U' });
          tokenCase = null;
          expect(token.ok, JSON.stringify(token)).toBe(true);
          expect(secretLeaks([{ label: 'token result', bytes: JSON.stringify(token) }], SECRETS)).toEqual([]);
        } else {
          echo = { echo: c.echo, lead: c.lead };
          const got = await rawRoundTrip(ports[via], requestOf(c, n), { firstAnswerOnly: true, halfClose: c.place === 'method' });
          expect(got.statuses.length, got.text).toBeGreaterThan(0);
        }
        counts[via]++;
        // Its row is there, completed (a relayed answer is recorded with the next write).
        await expect.poll(() => newest()?.response !== null || newest()?.error !== null).toBe(true);
        expect(newest()!.id).toBeGreaterThan(before);
        expect(await rowsLeaks(desk, home, before)).toEqual([]);
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(counts.sandbox + counts.forward + counts.token).toBe(RUNS);

    // What a user takes away: the HAR export (the CLI's reads are the same DeskApi answers: secrets-cli.test.ts).
    for (const via of ['sandbox', 'forward'] as const) {
      expect(secretLeaks([{ label: `${via} HAR export`, bytes: must(await desks[via].exportHar({})) }], SECRETS)).toEqual([]);
    }
    expect(secretLeaks([{ label: 'console', bytes: logs.text() }], SECRETS)).toEqual([]);
    await desks.sandbox.close();
    await desks.forward.close();
    expect(secretLeaks([...filePlaces(homes.sandbox), ...filePlaces(homes.forward)], IN_FILES)).toEqual([]);
  }, 150_000);
});
