// The profiles of a team's database: saved from any desk, every other desk on it (a proxy already
// running among them) routes, judges and signs with them, live; their secrets sealed with the team's
// key, never in clear; a desk without that key reads them but cannot seal a secret of its own among
// them; a change the database refuses is not kept; the data directory's own profiles stay its own; the
// composer's saved requests, kept per profile, are the team's as well.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import type { DeskEvents } from '../../../src-main/shared/desk-api';
import { formsOf } from '../../../src-main/core/redact/secret-forms';
import { sign } from '../../../src-main/core/signing';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PROFILE_COLUMNS } from '../../../src-main/core/store/sqlite';
import { connectPostgres } from '../../../src-main/core/store/postgres';
import { readTeamProfiles, writeTeamProfiles } from '../../../src-main/core/store/postgres/team-profiles';
import { must } from '../../helpers/must';
import { migratedDatabase, teamKeyFile, usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';
import { send, startProxy } from '../proxy/helpers';

const server = usePostgres();
const SECRET = 'team-profile-secret-7f3a';
const ROTATED = 'team-profile-secret-rotated-91c2';

/** A desk on the team's database; `withTeamKey` false: the data directory's own key, as a stranger's. */
function teamDesk(url: string, home = tempDir(), withTeamKey = true): Desk {
  const desk = createDesk({ home, database: url, ...(withTeamKey ? { keyFile: teamKeyFile(url) } : {}) });
  onTestFinished(() => desk.close());
  return desk;
}

const signedPay = (depositId: string, secret: string, prefix = '/platform') => {
  const body = JSON.stringify({ userId: 'u-1', depositId, currency: 'EUR', amount: 100 });
  return { path: `${prefix}/pay`, body, headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), secret) } };
};

/** The newest capture in the team's log, as the desk lists it. */
const newest = async (desk: Desk) => must(await desk.listExchanges({ allProfiles: true, limit: 1 })).items[0];

const names = async (desk: Desk): Promise<string[]> => must(await desk.listProfiles()).map((p) => p.name);
const fingerprintOf = async (desk: Desk, name: string): Promise<string | null> =>
  must(await desk.listProfiles()).find((p) => p.name === name)?.secret.fingerprint ?? null;

async function query<T>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const c = await connectPostgres(url);
  try {
    return (await c.query(sql, values)).rows as T[];
  } finally {
    await c.end();
  }
}

describe("a team database's profiles", () => {
  it('saved, rotated and removed from one desk: a proxy already running on another judges with them, live', async () => {
    const url = await migratedDatabase(server());
    const proxyDesk = teamDesk(url);
    const proxy = await startProxy(proxyDesk);
    await send(proxy.url, signedPay('d-before', SECRET));
    expect(await newest(proxyDesk)).toMatchObject({ depositId: 'd-before', profile: null, signature: { verdict: 'no-secret' } });

    // The UI hears of the change, to show the list again.
    const heard: string[][] = [];
    proxyDesk.on((name, payload) => {
      if (name === 'profiles') heard.push((payload as DeskEvents['profiles']).names);
    });
    const editor = teamDesk(url);
    must(await editor.saveProfile({ name: 'acme', secret: SECRET }));
    await expect.poll(() => names(proxyDesk), { timeout: 10_000 }).toEqual(['acme']);
    await expect.poll(() => heard, { timeout: 10_000 }).toContainEqual(['acme']);
    must(await proxyDesk.useProfile('acme'));
    await send(proxy.url, signedPay('d-saved', SECRET));
    expect(await newest(proxyDesk)).toMatchObject({ depositId: 'd-saved', profile: 'acme', signature: { verdict: 'valid' } });

    must(await editor.saveProfile({ name: 'acme', secret: ROTATED, previousSecret: SECRET }));
    const rotated = await fingerprintOf(editor, 'acme');
    await expect.poll(() => fingerprintOf(proxyDesk, 'acme'), { timeout: 10_000 }).toBe(rotated);
    await send(proxy.url, signedPay('d-rotated', ROTATED));
    expect(await newest(proxyDesk)).toMatchObject({ depositId: 'd-rotated', signature: { verdict: 'valid' } });

    // The secrets are in the team's database only sealed: no form of them in any profile's row.
    const dump = (await query<{ row: string }>(url, 'SELECT p::text AS row FROM profiles p')).map((r) => r.row).join('\n');
    expect(dump).toContain('acme');
    for (const secret of [SECRET, ROTATED]) for (const form of formsOf(secret)) expect(dump.includes(form.text), form.text).toBe(false);

    must(await editor.removeProfile('acme'));
    await expect.poll(() => names(proxyDesk), { timeout: 10_000 }).toEqual([]);
    // Removed elsewhere, the profile this desk had chosen is active no more.
    expect(must(await proxyDesk.getStatus()).activeProfile).toBeNull();
    await send(proxy.url, signedPay('d-removed', ROTATED));
    expect(await newest(proxyDesk)).toMatchObject({ depositId: 'd-removed', profile: null, signature: { verdict: 'no-secret' } });
  });

  it('which profile is active is each desk its own choice', async () => {
    const url = await migratedDatabase(server());
    const one = teamDesk(url);
    const other = teamDesk(url);
    must(await one.saveProfile({ name: 'acme', secret: SECRET }));
    must(await one.saveProfile({ name: 'beta', secret: SECRET, callbackPrefix: '/beta' }));
    await expect.poll(() => names(other), { timeout: 10_000 }).toEqual(['acme', 'beta']);
    must(await other.useProfile('beta'));
    const active = async (desk: Desk) => must(await desk.getStatus()).activeProfile;
    expect([await active(one), await active(other)]).toEqual(['acme', 'beta']);
  });

  it("a new profile's prefix adopts the team's unassigned captures under it, as on SQLite", async () => {
    const url = await migratedDatabase(server());
    const proxyDesk = teamDesk(url);
    const proxy = await startProxy(proxyDesk);
    await send(proxy.url, signedPay('d-early', SECRET, '/beta'));
    must(await teamDesk(url).saveProfile({ name: 'beta', secret: SECRET, callbackPrefix: '/beta' }));
    const rows = await query<{ profile: string | null }>(url, "SELECT profile FROM exchanges WHERE deposit_id = 'd-early'");
    expect(rows).toEqual([{ profile: 'beta' }]);
  });

  it("a desk without the team's key lists the profiles, but may not seal a secret among them with its own", async () => {
    const url = await migratedDatabase(server());
    must(await teamDesk(url).saveProfile({ name: 'acme', secret: SECRET }));
    const sealedBefore = await query<{ secret_enc: Buffer }>(url, "SELECT secret_enc FROM profiles WHERE name = 'acme'");

    // A key given from outside, but not the team's.
    const foreignKey = join(tempDir(), 'another.key');
    writeFileSync(foreignKey, randomBytes(32), { mode: 0o600 });
    const stranger = createDesk({ home: tempDir(), database: url, keyFile: foreignKey });
    onTestFinished(() => stranger.close());
    expect(must(await stranger.listProfiles())).toMatchObject([{ name: 'acme', secret: { set: true } }]);
    const refused = await stranger.saveProfile({ name: 'acme', secret: 'a-secret-under-another-key' });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.message).toMatch(
      /^This desk's key \(.*another\.key\) does not open the team's sealed secrets.*Give this desk the team's key \(--key-file or WAGER_DESK_KEY_FILE/,
    );
    const refusedNew = await stranger.saveProfile({ name: 'other', secret: 'a-secret-under-another-key', callbackPrefix: '/other' });
    expect(refusedNew.ok).toBe(false);
    expect(await names(stranger)).toEqual(['acme']);
    expect(await query<{ secret_enc: Buffer }>(url, "SELECT secret_enc FROM profiles WHERE name = 'acme'")).toEqual(sealedBefore);
    expect(await query(url, "SELECT name FROM profiles WHERE name = 'other'")).toEqual([]);
    // Nor does its proxy start, to verify nothing: it says which key it lacks.
    const started = await stranger.startProxy({ port: 0 });
    expect(started.ok).toBe(false);
    if (!started.ok)
      expect(started.error.message).toMatch(/another\.key \(given by --key-file\) does not open .*Give the key file they were sealed with \(the team's\)/);
  });

  it("a desk whose own key was fine before the team's first secret arrived is checked again: its status says so, and it may not seal", async () => {
    const url = await migratedDatabase(server());
    const stranger = teamDesk(url, tempDir(), false);
    // Nothing sealed yet: the data directory's own key (made now) opens everything there is.
    expect(must(await stranger.getStatus()).secretsKeyProblem).toBeNull();
    must(await teamDesk(url).saveProfile({ name: 'acme', secret: SECRET }));
    await expect.poll(() => names(stranger), { timeout: 10_000 }).toEqual(['acme']);
    expect(must(await stranger.getStatus()).secretsKeyProblem).toMatch(
      /^This desk reads the data directory's own key \(.*\), and the team's database holds secrets sealed with the team's key \(the secrets of profile "acme"\)\. Give this desk the team's key: --key-file/,
    );
    const refused = await stranger.saveProfile({ name: 'acme', secret: 'a-secret-under-another-key' });
    expect(refused.ok).toBe(false);
  });

  it('a change the database refuses is not kept by the desk, and the refusal names the database, not its password', async () => {
    const url = await migratedDatabase(server());
    await query(url, "ALTER TABLE profiles ADD CONSTRAINT refuses_one CHECK (name <> 'refused')");
    // A removal refused too, by a trigger.
    await query(
      url,
      `CREATE FUNCTION keep_kept() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'kept stays'; END $$;
       CREATE TRIGGER keep_kept BEFORE DELETE ON profiles FOR EACH ROW WHEN (OLD.name = 'kept') EXECUTE FUNCTION keep_kept()`,
    );
    const desk = teamDesk(url);
    // Listening (as a UI is): its calls do not read the team's rows first, so what it lists is its copy.
    desk.on(() => undefined);
    must(await desk.saveProfile({ name: 'acme', secret: SECRET }));
    must(await desk.saveProfile({ name: 'kept', callbackPrefix: '/kept' }));
    const refused = await desk.saveProfile({ name: 'refused', callbackPrefix: '/refused' });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.message).toMatch(/^PostgreSQL at postgres:\/\/postgres:\*\*\*@.*refuses_one/);
    expect(refused.error.message).not.toContain(new URL(url).password);
    expect(await names(desk)).toEqual(['acme', 'kept']);
    // The desk's active profile is its own choice: the first it saved, whatever the team has.
    expect(must(await desk.getStatus()).activeProfile).toBe('acme');

    must(await desk.useProfile('kept'));
    const notRemoved = await desk.removeProfile('kept');
    expect(notRemoved.ok).toBe(false);
    expect(await names(desk)).toEqual(['acme', 'kept']);
    // Undone whole: the data directory's choice of the active profile too.
    expect(must(await desk.getStatus()).activeProfile).toBe('kept');
  });

  it("a field saved on a desk whose copy is a poll old does not put back another desk's older secret", async () => {
    const url = await migratedDatabase(server());
    const listening = teamDesk(url);
    listening.on(() => undefined);
    const other = teamDesk(url);
    must(await other.saveProfile({ name: 'acme', secret: SECRET }));
    await expect.poll(() => names(listening), { timeout: 10_000 }).toEqual(['acme']);
    must(await other.saveProfile({ name: 'acme', secret: ROTATED, previousSecret: SECRET }));
    const rotated = await fingerprintOf(other, 'acme');
    // At once, before a poll could have brought the rotation.
    must(await listening.saveProfile({ name: 'acme', operatorUrl: 'http://127.0.0.1:9/operator' }));
    expect(await fingerprintOf(teamDesk(url), 'acme')).toBe(rotated);
    expect(must(await teamDesk(url).listProfiles())[0]).toMatchObject({ operatorUrl: 'http://127.0.0.1:9/operator', previousSecret: { set: true } });
  });

  it('a write whose rows another desk changed after they were read is refused, and writes nothing', async () => {
    const url = await migratedDatabase(server());
    must(await teamDesk(url).saveProfile({ name: 'acme', secret: SECRET }));
    const c = await connectPostgres(url);
    onTestFinished(() => c.end());
    const [was] = await readTeamProfiles(c);
    await c.query("UPDATE profiles SET operator_url = 'http://127.0.0.1:9/theirs' WHERE name = 'acme'");
    const mine = [...was!];
    mine[PROFILE_COLUMNS.indexOf('upstream')] = 'http://127.0.0.1:9/mine';
    await expect(writeTeamProfiles(c, [{ name: 'acme', row: mine, was: was!, adoptPrefix: null }])).rejects.toThrow(
      /Profile "acme" was changed by another desk meanwhile: nothing was saved/,
    );
    expect(await query(url, "SELECT operator_url, upstream FROM profiles WHERE name = 'acme'")).toEqual([
      { operator_url: 'http://127.0.0.1:9/theirs', upstream: null },
    ]);
    // A new profile that another desk is making at the same moment: this write waits for theirs, then
    // finds the name taken, and leaves their profile as they made it.
    const theirs = await connectPostgres(url);
    onTestFinished(() => theirs.end());
    await theirs.query('BEGIN');
    await theirs.query(
      "INSERT INTO profiles (name, amounts, currency, operator_url, created_at, updated_at) VALUES ('beta', 'integer', 'EUR', 'http://127.0.0.1:9/beta-theirs', 'x', 'x')",
    );
    const fresh = [...was!];
    fresh[PROFILE_COLUMNS.indexOf('name')] = 'beta';
    const writing = writeTeamProfiles(c, [{ name: 'beta', row: fresh, was: null, adoptPrefix: null }]);
    const refusedToo = expect(writing).rejects.toThrow(/Profile "beta" was changed by another desk meanwhile/);
    // Theirs commits once this write is waiting on it.
    await expect
      .poll(
        async () =>
          (await query<{ n: string }>(url, "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"))[0]!.n,
        {
          timeout: 10_000,
        },
      )
      .toBe('1');
    await theirs.query('COMMIT');
    await refusedToo;
    expect(await query(url, "SELECT operator_url FROM profiles WHERE name = 'beta'")).toEqual([{ operator_url: 'http://127.0.0.1:9/beta-theirs' }]);
  });

  it("a desk that reads only its data directory's own key may not seal the team's first secret with it", async () => {
    const url = await migratedDatabase(server());
    const own = teamDesk(url, tempDir(), false);
    const refused = await own.saveProfile({ name: 'acme', secret: SECRET });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/^On a team's database secrets are sealed with the team's key, .*--key-file/);
    expect(await query(url, 'SELECT name FROM profiles')).toEqual([]);
    // What seals nothing is saved.
    must(await own.saveProfile({ name: 'acme', operatorUrl: 'http://127.0.0.1:9/operator' }));
    expect(await names(teamDesk(url))).toEqual(['acme']);
  });

  it('closing a desk never waits for a database that does not answer', async () => {
    // A server that takes the connection and never says a word.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => silent.close(() => resolve())));
    let connections = 0;
    silent.on('connection', (socket) => {
      connections++;
      onTestFinished(() => void socket.destroy());
    });
    const port = (silent.address() as AddressInfo).port;
    const database = `postgres://desk:pw@127.0.0.1:${port}/team`;
    // The connect timeout is 10 s: a close that waited for it would lose this race.
    const closesSoon = async (desk: Desk): Promise<string> =>
      Promise.race([desk.close().then(() => 'closed'), new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 5_000))]);
    // A desk that never read, and one that listens (a UI), whose first read is still connecting.
    expect(await closesSoon(createDesk({ home: tempDir(), database }))).toBe('closed');
    const listening = createDesk({ home: tempDir(), database });
    listening.on(() => undefined);
    await expect.poll(() => connections, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(await closesSoon(listening)).toBe('closed');
  });

  it("the data directory's own profiles stay its own: back on its SQLite log, they are there and the team's are not", async () => {
    const url = await migratedDatabase(server());
    const home = tempDir();
    const local = createDesk({ home, database: null });
    must(await local.saveProfile({ name: 'laptop', secret: 'laptop-secret', callbackPrefix: '/laptop' }));
    await local.close();

    const onTeam = teamDesk(url, home);
    expect(await names(onTeam)).toEqual([]);
    must(await onTeam.saveProfile({ name: 'acme', secret: SECRET }));
    expect(await names(onTeam)).toEqual(['acme']);
    // The data directory chose 'laptop', which the team has not: none is active here until one is chosen.
    expect(must(await onTeam.getStatus()).activeProfile).toBeNull();
    await onTeam.close();

    const back = createDesk({ home, database: null });
    onTestFinished(() => back.close());
    expect(await names(back)).toEqual(['laptop']);
    expect(must(await back.getStatus()).activeProfile).toBe('laptop');
  });

  it("the composer's saved requests are the team's too: saved on one desk, listed, exported and removed on another", async () => {
    const url = await migratedDatabase(server());
    const one = teamDesk(url);
    const other = teamDesk(url);
    must(await one.saveProfile({ name: 'acme', secret: SECRET }));
    // Odd bytes a re-serialization would change, and a NUL; the signature header is never kept.
    const body = Buffer.from('{ "userId":"u-9",  "depositId":"d-9", "memo":"café\u0000" }\u0000', 'utf8');
    const headers: Array<[string, string]> = [
      ['content-type', 'application/json'],
      ['x-server-authorization', 'ab'.repeat(32)],
    ];
    const draft = { method: 'POST', path: '/platform/results', headers, bodyBase64: body.toString('base64'), sourceId: null };
    must(await one.saveRequest({ name: 'refund twice', draft, signature: 'resign', profile: 'acme' }));
    must(await one.saveRequest({ name: 'refund twice', draft: { ...draft, path: '/platform/pay' }, signature: 'none', profile: 'acme' }));

    const listed = must(await other.listSavedRequests('acme'));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      profile: 'acme',
      name: 'refund twice',
      path: '/platform/pay',
      signature: 'none',
      headers: [['content-type', 'application/json']],
    });
    expect(Buffer.from(listed[0]!.bodyBase64, 'base64').equals(body)).toBe(true);
    // An import of two with one name keeps the later, all at once.
    const file = must(await other.exportSavedRequests('acme'));
    const twice = JSON.parse(file) as { requests: Array<{ name: string; path: string }> };
    twice.requests.push({ ...twice.requests[0]!, path: '/platform/results' });
    must(await other.importSavedRequests(JSON.stringify(twice), 'acme'));
    expect(must(await one.listSavedRequests('acme')).map((r) => r.path)).toEqual(['/platform/results']);

    must(await other.removeSavedRequest('refund twice', 'acme'));
    expect(must(await one.listSavedRequests('acme'))).toEqual([]);
    expect((await one.removeSavedRequest('refund twice', 'acme')).ok).toBe(false);
  });
});
