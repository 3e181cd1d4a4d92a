// A balance probe's URL query values (?key=...) are credentials: sealed in the profile's row (SQLite
// and PostgreSQL), never in clear in a stored byte; every view of a profile (what the UI's form, the web
// API and the CLI receive) shows them masked; a form that saves the masked URL back keeps the stored
// values, a typed value replaces one, and the probe sends the whole URL.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk, type Desk } from '../../src-main/core/desk';
import { connectPostgres } from '../../src-main/core/store/postgres';
import { KEY_FILE } from '../../src-main/core/store/sealing/key-source';
import { closeAfterTest } from '../helpers/closing';
import { openDesk, sqliteOf } from '../helpers/desk';
import { must } from '../helpers/must';
import { migratedDatabase, teamKeyFile, usePostgres } from '../helpers/postgres';
import { startRecorder, type Recorder } from '../helpers/servers';
import { tempDir } from '../helpers/temp';
import { filePlaces } from './helpers/canary';
import { secretLeaks } from './helpers/secret-oracle';

const server = usePostgres();
const QUERY_KEY = 'qkey-Sealed-Zu7Wm3Px';
const NEW_KEY = 'qkey-Typed-Hy4Lc8Rn';
const LONG_VALUE = 'plainlongvalue-Ka2Jd5Vb';

function answerBalance(_req: IncomingMessage, _body: Buffer, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"balance":1050}');
}

const probe = async (): Promise<Recorder> => closeAfterTest(await startRecorder(answerBalance));
const urlOf = (p: Recorder, key: string): string => `${p.url}/balance/{userId}?key=${key}&user={userId}&long=${LONG_VALUE}`;

async function viewedUrl(desk: Desk): Promise<string | null> {
  return must(await desk.listProfiles()).find((p) => p.name === 'p')!.balance.url;
}

/** The query the probe received for one reading. */
async function probedQuery(desk: Desk, p: Recorder): Promise<string> {
  must(await desk.readBalance('alice', 'p'));
  return p.received.at(-1)!.url.split('?')[1]!;
}

describe("a balance URL's query values", () => {
  it('on SQLite: sealed in the row, masked in every view, kept when the masked URL is saved back, replaced when typed', async () => {
    const p = await probe();
    const home = tempDir();
    const desk = openDesk(home);
    const saved = must(await desk.saveProfile({ name: 'p', secret: 'bu-signing-1', balanceUrl: urlOf(p, QUERY_KEY), balancePath: '$.balance' }));
    const masked = `${p.url}/balance/{userId}?key=***&user={userId}&long=***`;
    expect(saved.balance.url).toBe(masked);
    expect(await viewedUrl(desk)).toBe(masked);
    expect(await probedQuery(desk, p)).toBe(`key=${QUERY_KEY}&user=alice&long=${LONG_VALUE}`);

    const row = sqliteOf(desk).prepare("SELECT balance_url, balance_url_enc FROM profiles WHERE name = 'p'").get() as {
      balance_url: string;
      balance_url_enc: Buffer | null;
    };
    expect(row.balance_url).toBe(masked);
    expect(row.balance_url_enc).toBeInstanceOf(Buffer);

    // The form sends back what it was shown, with another field changed: the stored values stay.
    must(await desk.saveProfile({ name: 'p', balanceUrl: masked, balancePath: '$.balance' }));
    expect(await probedQuery(desk, p)).toBe(`key=${QUERY_KEY}&user=alice&long=${LONG_VALUE}`);
    // One value typed, the other kept.
    must(await desk.saveProfile({ name: 'p', balanceUrl: `${p.url}/balance/{userId}?key=${NEW_KEY}&user={userId}&long=***` }));
    expect(await probedQuery(desk, p)).toBe(`key=${NEW_KEY}&user=alice&long=${LONG_VALUE}`);
    expect(await viewedUrl(desk)).toBe(masked);

    // A masked value with nothing stored under its name is refused, naming only the parameter.
    const refused = await desk.saveProfile({ name: 'p', balanceUrl: `${p.url}/balance/{userId}?other=***` });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad-input', message: expect.stringContaining('under "other"') } });
    expect(JSON.stringify(refused)).not.toContain(NEW_KEY);
    // A URL refused as not a URL is quoted masked.
    const notUrl = await desk.saveProfile({ name: 'p', balanceUrl: `not a url?key=${NEW_KEY}` });
    expect(notUrl).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    expect(JSON.stringify(notUrl)).not.toContain(NEW_KEY);

    await desk.close();
    expect(secretLeaks(filePlaces(home), [QUERY_KEY, NEW_KEY, LONG_VALUE])).toEqual([]);
  });

  it('stored in clear by an earlier version: shown masked, sealed by the next save of the profile', async () => {
    const p = await probe();
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'p', secret: 'bu-signing-2', balancePath: '$.balance' }));
    sqliteOf(desk).prepare("UPDATE profiles SET balance_url = ? WHERE name = 'p'").run(urlOf(p, QUERY_KEY));
    // Shown masked even so.
    expect(await viewedUrl(desk)).toBe(`${p.url}/balance/{userId}?key=***&user={userId}&long=***`);
    must(await desk.saveProfile({ name: 'p', operatorId: 'op-9' }));
    const row = sqliteOf(desk).prepare("SELECT balance_url, balance_url_enc FROM profiles WHERE name = 'p'").get() as {
      balance_url: string;
      balance_url_enc: Buffer | null;
    };
    expect(row.balance_url).not.toContain(QUERY_KEY);
    expect(row.balance_url_enc).toBeInstanceOf(Buffer);
    expect(await probedQuery(desk, p)).toBe(`key=${QUERY_KEY}&user=alice&long=${LONG_VALUE}`);
  });

  it("under a key that cannot open it: given back as shown, the other fields still save; a kept value is refused with the key's way out", async () => {
    const p = await probe();
    const home = tempDir();
    const first = openDesk(home);
    must(await first.saveProfile({ name: 'p', balanceUrl: urlOf(p, QUERY_KEY), balancePath: '$.balance' }));
    const shown = (await viewedUrl(first))!;
    await first.close();
    // Another key in the key file's place: the sealed URL no longer opens.
    writeFileSync(join(home, KEY_FILE), randomBytes(32), { mode: 0o600 });
    const desk = openDesk(home);
    must(await desk.saveProfile({ name: 'p', balanceUrl: shown, operatorId: 'op-kept' }));
    expect(must(await desk.listProfiles()).find((x) => x.name === 'p')).toMatchObject({ operatorId: 'op-kept', balance: { url: shown } });
    const refused = await desk.saveProfile({ name: 'p', balanceUrl: `${shown}&fmt=json` });
    expect(refused).toMatchObject({ ok: false, error: { code: 'no-secret', message: expect.stringContaining(KEY_FILE) } });
  });

  it("on PostgreSQL: the team's row holds them sealed; another desk with the team's key probes with them", async () => {
    const p = await probe();
    const url = await migratedDatabase(server());
    const teamDesk = (): Desk => {
      const desk = createDesk({ home: tempDir(), database: url, keyFile: teamKeyFile(url) });
      onTestFinished(() => desk.close());
      return desk;
    };
    const editor = teamDesk();
    must(await editor.saveProfile({ name: 'p', secret: 'bu-signing-3', balanceUrl: urlOf(p, QUERY_KEY), balancePath: '$.balance' }));
    const client = await connectPostgres(url);
    onTestFinished(() => client.end());
    const rows = (await client.query("SELECT * FROM profiles WHERE name = 'p'")).rows as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.balance_url_enc).toBeInstanceOf(Buffer);
    // The row as text, its bytes as hex and as they are: no form of any value.
    const places = Object.entries(rows[0]!).map(([column, v]) => ({ label: column, bytes: v instanceof Buffer ? v : String(v) }));
    places.push({ label: 'row as JSON', bytes: JSON.stringify(rows[0]) });
    expect(secretLeaks(places, [QUERY_KEY, LONG_VALUE])).toEqual([]);

    const reader = teamDesk();
    await expect.poll(() => viewedUrl(reader).catch(() => null), { timeout: 10_000 }).toBe(`${p.url}/balance/{userId}?key=***&user={userId}&long=***`);
    expect(await probedQuery(reader, p)).toBe(`key=${QUERY_KEY}&user=alice&long=${LONG_VALUE}`);
  });
});
