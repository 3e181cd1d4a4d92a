// The profiles of a team's database: saved from any desk, every other desk on it (a proxy already
// running among them) routes, judges and signs with them, live; their secrets sealed with the team's
// key, never in clear; a desk without that key reads them but cannot seal a secret of its own among
// them; a change the database refuses is not kept; the data directory's own profiles stay its own; the
// composer's saved requests, kept per profile, are the team's as well.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import type { DeskEvents } from '../../../src-main/shared/desk-api';
import { formsOf } from '../../../src-main/core/secret-forms';
import { sign } from '../../../src-main/core/signing';
import { connectPostgres } from '../../../src-main/core/store/postgres';
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

    const stranger = teamDesk(url, tempDir(), false);
    expect(must(await stranger.listProfiles())).toMatchObject([{ name: 'acme', secret: { set: true } }]);
    const refused = await stranger.saveProfile({ name: 'acme', secret: 'a-secret-under-another-key' });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.message).toMatch(
      /^This desk's key \(.*secrets\.key\) does not open the team's sealed secrets.*Give this desk the team's key \(--key-file or WAGER_DESK_KEY_FILE/,
    );
    const refusedNew = await stranger.saveProfile({ name: 'other', secret: 'a-secret-under-another-key', callbackPrefix: '/other' });
    expect(refusedNew.ok).toBe(false);
    expect(await names(stranger)).toEqual(['acme']);
    expect(await query<{ secret_enc: Buffer }>(url, "SELECT secret_enc FROM profiles WHERE name = 'acme'")).toEqual(sealedBefore);
    expect(await query(url, "SELECT name FROM profiles WHERE name = 'other'")).toEqual([]);
    // Nor does its proxy start, to verify nothing: it says which key it lacks.
    const started = await stranger.startProxy({ port: 0 });
    expect(started.ok).toBe(false);
    if (!started.ok) expect(started.error.message).toMatch(/Give this desk the team's key/);
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
    const desk = teamDesk(url);
    must(await desk.saveProfile({ name: 'acme', secret: SECRET }));
    const refused = await desk.saveProfile({ name: 'refused', callbackPrefix: '/refused' });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.message).toMatch(/^PostgreSQL at postgres:\/\/postgres:\*\*\*@.*refuses_one/);
    expect(refused.error.message).not.toContain(new URL(url).password);
    expect(await names(desk)).toEqual(['acme']);
    // The desk's active profile is its own choice: the first it saved, whatever the team has.
    expect(must(await desk.listProfiles()).find((p) => p.active)?.name).toBe('acme');
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
    await onTeam.close();

    const back = createDesk({ home, database: null });
    onTestFinished(() => back.close());
    expect(await names(back)).toEqual(['laptop']);
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
