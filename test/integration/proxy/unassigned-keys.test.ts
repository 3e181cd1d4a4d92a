// A capture under no profile's callback prefix (answered 404, judged by nobody's secret) is still listed
// by what its body says: its key fields are read as any capture's, on SQLite and on PostgreSQL, so a
// search by depositId finds it. A body that is not JSON, or not an object, has none; a stored secret in
// one is redacted there as everywhere.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import type { ExchangeSummary } from '../../../src-main/shared/model';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { migratedDatabase, teamKeyFile, usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';
import { send, startProxy } from './helpers';

const server = usePostgres();
const ACME_SECRET = 'acme-secret-unassigned-5e1d';

async function postgresDesk(): Promise<Desk> {
  const url = await migratedDatabase(server());
  const desk = createDesk({ home: tempDir(), database: url, keyFile: teamKeyFile(url) });
  onTestFinished(() => desk.close());
  return desk;
}

const ENGINES: Array<[string, () => Promise<Desk>]> = [
  ['SQLite', async () => openDesk()],
  ['PostgreSQL', postgresDesk],
];

const keysOf = (r: ExchangeSummary) => [r.path, r.profile, r.depositId, r.userId, r.response?.status];

describe.each(ENGINES)('unassigned captures on %s', (_name, open) => {
  it('list the key fields their body holds, found by depositId; a body that is no JSON object has none', async () => {
    const desk = await open();
    must(await desk.saveProfile({ name: 'acme', callbackPrefix: '/acme', secret: ACME_SECRET }));
    must(await desk.saveProfile({ name: 'bolt', callbackPrefix: '/bolt' }));
    const proxy = await startProxy(desk);
    const json = { 'content-type': 'application/json' };
    const bodies = [
      ['/elsewhere/pay', JSON.stringify({ depositId: 'd-stray', userId: 'u-stray', amount: 250, currency: 'EUR' })],
      ['/elsewhere/results', 'depositId=d-form&userId=u-form'],
      ['/elsewhere/results', JSON.stringify([{ depositId: 'd-array' }])],
      ['/elsewhere/pay', JSON.stringify({ depositId: 'd-secret', userId: ACME_SECRET })],
    ] as const;
    for (const [path, body] of bodies) expect((await send(proxy.url, { path, headers: json, body })).status).toBe(404);

    const rows = must(await desk.listExchanges({ allProfiles: true })).items;
    expect(rows.map(keysOf)).toEqual([
      ['/elsewhere/pay', null, 'd-secret', expect.stringMatching(/^\[redacted sha256:[0-9a-f]{8}\]$/), 404],
      ['/elsewhere/results', null, null, null, 404],
      ['/elsewhere/results', null, null, null, 404],
      ['/elsewhere/pay', null, 'd-stray', 'u-stray', 404],
    ]);
    expect(rows[3]!.amount).toBe(250);
    // Still nobody's: not verified with any profile's secret.
    expect(rows.map((r) => r.signature.verdict)).toEqual([null, null, null, null]);
    expect(JSON.stringify(rows)).not.toContain(ACME_SECRET);

    const found = must(await desk.listExchanges({ allProfiles: true, depositId: 'd-stray' })).items;
    expect(found.map((r) => r.id)).toEqual([rows[3]!.id]);
  });
});
