// The adversarial property: a stored secret (the signing secret, the previous one, the API key, each
// part of a balance probe's credentials) is
// planted in a random place of a request (a header name or value, the method, the target path, the
// query, an Expect value, a JSON string of the body, the raw body) or of an answer (a stand-in
// upstream's or token endpoint's headers and body), in a random form (plain, base64 or base64url at a
// random alignment, hex in either case, percent-encoded once or twice, wholly or partly, `\u`-escaped),
// sent through the real proxy (sandbox mode, and forward mode to an upstream that echoes what it got,
// encoded) or the token client. After each case no stored byte (the database and its WAL), no detail
// (what `show --json` prints) and no list holds any form of any secret; at the end neither does the
// HAR export, nor anything written to the console. The same on a desk attached to PostgreSQL, whose
// database password is planted too: no row of any table, no export and no CLI output holds any form.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk, type Desk } from '../../src-main/core/desk';
import { connectPostgres, migratePostgres } from '../../src-main/core/store/postgres';
import { sign } from '../../src-main/core/signing';
import { runCli } from '../helpers/cli';
import { openDesk } from '../helpers/desk';
import { withClient } from '../helpers/embedded-postgres';
import { must } from '../helpers/must';
import { teamKeyFile, usePostgres } from '../helpers/postgres';
import { rawRoundTrip } from '../helpers/raw-socket';
import { closeServer, listen } from '../helpers/servers';
import { tempDir } from '../helpers/temp';
import { startProxy } from '../integration/proxy/helpers';
import { filePlaces } from './helpers/canary';
import { secretLeaks } from './helpers/secret-oracle';
import { exchangesOf } from '../helpers/log-reads';

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
/** The password of the PostgreSQL role the team desk connects as: planted like the others on that desk. */
const DB_PASSWORD = 'plant-dbpw-Rt5Ye8Ui2';
/** Every planted secret: a plant names one by its index here (the SQLite desks draw from SECRETS only). */
const ALL_SECRETS = [...SECRETS, DB_PASSWORD];

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
  const secret = ALL_SECRETS[p.secret]!;
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

/** A plant of one of the first `secrets` of ALL_SECRETS. */
const plantArb = (secrets: number): fc.Arbitrary<Plant> =>
  fc.record({
    secret: fc.integer({ min: 0, max: secrets - 1 }),
    form: fc.constantFrom(...FORMS),
    before: fc.stringMatching(/^[a-z0-9]{0,5}$/),
    after: fc.stringMatching(/^[a-z0-9]{0,5}$/),
  });

const caseArbOf = (secrets: number, vias: readonly ['sandbox' | 'forward' | 'token', ...Array<'sandbox' | 'forward' | 'token'>]) =>
  fc.record({
    via: fc.constantFrom(...vias),
    place: fc.constantFrom(...PLACES),
    plant: plantArb(secrets),
    /** How the stand-in upstream echoes the request back: as is, base64, hex (with a random lead, for alignment). */
    echo: fc.constantFrom('plain', 'base64', 'hex'),
    lead: fc.stringMatching(/^[a-z]{0,2}$/),
  });
const caseArb = caseArbOf(SECRETS.length, ['sandbox', 'forward', 'token']);
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
  await saveSecrets(desk, base);
  return desk;
}

/** The profile whose every secret is planted: a signing secret rotated out, an API key, the probe's credentials. */
async function saveSecrets(desk: Desk, base: string): Promise<void> {
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
}

async function rowsLeaks(desk: Desk, home: string, from: number): Promise<string[]> {
  const items = await exchangesOf(desk, { direction: 'all', limit: 1000 });
  const places: Array<{ label: string; bytes: string | Uint8Array }> = [{ label: 'list', bytes: JSON.stringify(items) }];
  for (const x of items.filter((i) => i.id > from)) places.push({ label: `detail ${x.id}`, bytes: JSON.stringify(must(await desk.getExchange(x.id))) });
  places.push({ label: 'sandbox state', bytes: JSON.stringify(must(await desk.getSandboxState())) });
  return [...secretLeaks(places, SECRETS), ...secretLeaks(filePlaces(home), SECRETS)];
}

const RUNS = 45;
/** Fewer on PostgreSQL: each case waits for the team's database, and the file stays under a minute. */
const PG_RUNS = 10;

const postgres = usePostgres();

/**
 * A fresh database owned by a role of its own whose password is DB_PASSWORD, migrated: the URL the desk
 * is given (with that password) and the server's own URL for the test's reads. The role and what it
 * owns are handed back and dropped after the test.
 */
async function plantedDatabase(): Promise<{ url: string; admin: string }> {
  const admin = await postgres().newDatabase();
  const role = `planter_${randomBytes(4).toString('hex')}`;
  const name = new URL(admin).pathname.slice(1);
  await withClient(admin, async (c) => {
    await c.query(`CREATE ROLE ${role} LOGIN PASSWORD '${DB_PASSWORD}'`);
    await c.query(`ALTER DATABASE ${name} OWNER TO ${role}`);
    await c.query(`ALTER SCHEMA public OWNER TO ${role}`);
  });
  onTestFinished(() =>
    withClient(admin, async (c) => {
      await c.query(`REASSIGN OWNED BY ${role} TO CURRENT_USER`);
      await c.query(`DROP OWNED BY ${role}`);
      await c.query(`DROP ROLE ${role}`);
    }),
  );
  const url = new URL(admin);
  url.username = role;
  url.password = DB_PASSWORD;
  const client = await connectPostgres(url.toString());
  try {
    await migratePostgres(client);
  } finally {
    await client.end();
  }
  return { url: url.toString(), admin };
}

/** Every value of the database's tables (all of them, the search index's too): text as text, bytes as bytes. */
async function databasePlaces(admin: string, exchangesAfter = 0): Promise<Array<{ label: string; bytes: string | Uint8Array }>> {
  return withClient(admin, async (c) => {
    const tables = (await c.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).rows.map((r) => r.t);
    const places: Array<{ label: string; bytes: string | Uint8Array }> = [];
    for (const table of tables) {
      const rows =
        table === 'exchanges'
          ? (await c.query('SELECT * FROM exchanges WHERE id > $1', [exchangesAfter])).rows
          : (await c.query(`SELECT * FROM ${table}`)).rows;
      const texts: string[] = [];
      for (const row of rows as Array<Record<string, unknown>>) {
        for (const [column, value] of Object.entries(row)) {
          if (value instanceof Uint8Array) places.push({ label: `${table}.${column}`, bytes: value });
          else if (value !== null) texts.push(typeof value === 'string' ? value : JSON.stringify(value));
        }
      }
      places.push({ label: table, bytes: texts.join('\n') });
    }
    return places;
  });
}

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
        const newest = async () => (await exchangesOf(desk, { direction: 'all', limit: 1 }))[0];
        const before = (await newest())?.id ?? 0;
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
        await expect
          .poll(async () => {
            const row = await newest();
            return row?.response !== null || row?.error !== null;
          })
          .toBe(true);
        expect((await newest())!.id).toBeGreaterThan(before);
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
    expect(secretLeaks([...filePlaces(homes.sandbox), ...filePlaces(homes.forward)], SECRETS)).toEqual([]);
  }, 150_000);
});

describe('on a desk attached to PostgreSQL', () => {
  it("the probe's credentials and the database's password planted anywhere: no row of any table, export or CLI output holds them", async () => {
    const logs = capturedConsole();
    onTestFinished(logs.restore);
    const server = standIn();
    onTestFinished(() => closeServer(server));
    const base = await listen(server);
    const database = await plantedDatabase();
    const home = tempDir();
    const keyFile = teamKeyFile(database.url);
    const desk = createDesk({ home, database: database.url, keyFile });
    let open = true;
    onTestFinished(() => (open ? desk.close() : undefined));
    await saveSecrets(desk, base);
    const { port } = await startProxy(desk, { upstream: base });
    const newest = async () => must(await desk.listExchanges({ direction: 'all', allProfiles: true, limit: 1 })).items[0];

    let n = 0;
    await fc.assert(
      fc.asyncProperty(caseArbOf(ALL_SECRETS.length, ['forward', 'token']), async (c) => {
        n++;
        const before = (await newest())?.id ?? 0;
        if (c.via === 'token') {
          tokenCase = c;
          const token = await desk.requestToken({ userId: `u-${n}`, displayName: 'U' });
          tokenCase = null;
          expect(token.ok, JSON.stringify(token)).toBe(true);
          expect(secretLeaks([{ label: 'token result', bytes: JSON.stringify(token) }], ALL_SECRETS)).toEqual([]);
        } else {
          echo = { echo: c.echo, lead: c.lead };
          const got = await rawRoundTrip(port, requestOf(c, n), { firstAnswerOnly: true, halfClose: c.place === 'method' });
          expect(got.statuses.length, got.text).toBeGreaterThan(0);
        }
        await expect
          .poll(async () => ((await newest())?.id ?? 0) > before && ((await newest())?.response !== null || (await newest())?.error !== null))
          .toBe(true);
        const items = must(await desk.listExchanges({ direction: 'all', allProfiles: true, limit: 1000 })).items.filter((x) => x.id > before);
        const places: Array<{ label: string; bytes: string | Uint8Array }> = [{ label: 'list', bytes: JSON.stringify(items) }];
        for (const x of items) places.push({ label: `detail ${x.id}`, bytes: JSON.stringify(must(await desk.getExchange(x.id))) });
        places.push(...(await databasePlaces(database.admin, before)));
        expect(secretLeaks(places, ALL_SECRETS)).toEqual([]);
      }),
      { numRuns: PG_RUNS, endOnFailure: true },
    );
    expect(n).toBe(PG_RUNS);
    const har = must(await desk.exportHar({}));
    expect(secretLeaks([{ label: 'HAR export', bytes: har }], ALL_SECRETS)).toEqual([]);
    const last = (await newest())!.id;
    open = false;
    await desk.close();

    // The CLI on the same database (its URL, password and all, in the environment, as docs/CLI.md says).
    const harFile = join(tempDir(), 'all.har');
    const cli = (args: string[]) => runCli(['--home', home, '--key-file', keyFile, ...args], { env: { WAGER_DESK_DATABASE_URL: database.url } });
    const outputs = [
      await cli(['captures', '--all', '--json']),
      await cli(['show', String(last), '--json']),
      await cli(['export', '--har', harFile, '--all']),
      await cli(['profile', 'list', '--json']),
      await cli(['status']),
      // The stand-in answers the probe with HTML echoing what it got (the URL's key, the headers): the reason quotes it.
      await cli(['balance', 'u-1']),
    ];
    expect(outputs.slice(0, 5).map((o) => [o.code, o.stderr])).toEqual(outputs.slice(0, 5).map(() => [0, '']));
    const printed = outputs.map((o, i) => ({ label: `CLI output ${i}`, bytes: o.stdout + o.stderr }));
    expect(secretLeaks([...printed, { label: 'CLI HAR', bytes: readFileSync(harFile) }], ALL_SECRETS)).toEqual([]);
    // Every table whole, the search index included, once the CLI has been on it too.
    expect(secretLeaks(await databasePlaces(database.admin), ALL_SECRETS)).toEqual([]);
    expect(secretLeaks(filePlaces(home), ALL_SECRETS)).toEqual([]);
    expect(secretLeaks([{ label: 'console', bytes: logs.text() }], ALL_SECRETS)).toEqual([]);
  }, 150_000);
});
