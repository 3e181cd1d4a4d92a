// Migration 008 from a real database of the schema before it (version 7): the rows of two callback
// prefixes get their profiles, rows no single profile can claim stay unassigned, the sandbox books go
// to the profile that was active, and the desk opened on it lists and times each profile apart.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../src-main/core/store/sqlite';
import { migrate, MIGRATIONS } from '../../../src-main/core/store/sqlite/migrations';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { tempDir } from '../../helpers/temp';

const now = '2026-11-20T10:00:00.000Z';

function insertRow(db: Database.Database, row: { direction: 'inbound' | 'outbound'; path: string; target?: string; depositId: string }): void {
  db.prepare(
    `INSERT INTO exchanges (direction, kind, origin, at, method, path, target, req_headers, req_body, req_size, deposit_id, user_id, verdict, res_status)
     VALUES (@direction, 'pay', @origin, @at, 'POST', @path, @target, '[]', x'7b7d', 2, @depositId, 'u-1', 'valid', 200)`,
  ).run({ ...row, target: row.target ?? null, origin: row.direction === 'inbound' ? 'proxy' : 'send', at: now });
}

/** A data directory holding a database at schema 7 with two profiles and rows under both prefixes. */
function version7Home(): string {
  const home = tempDir();
  const db = new Database(join(home, DATABASE_FILE));
  migrate(db, 0, MIGRATIONS.slice(0, 7));
  expect(db.pragma('user_version', { simple: true })).toBe(7);
  const profile = db.prepare(`INSERT INTO profiles (name, callback_prefix, operator_url, created_at, updated_at) VALUES (?, ?, ?, '${now}', '${now}')`);
  profile.run('acme', '/acme', 'https://acme.example/cb');
  profile.run('bolt', null, 'https://bolt.example');
  db.prepare(`INSERT INTO settings (key, value) VALUES ('active-profile', 'acme')`).run();
  insertRow(db, { direction: 'inbound', path: '/acme/pay', depositId: 'd-1' });
  insertRow(db, { direction: 'inbound', path: '/platform/pay', depositId: 'd-1' });
  insertRow(db, { direction: 'inbound', path: '/acme', depositId: 'd-2' });
  // Under neither prefix (/acmeX is not under /acme): unassigned.
  insertRow(db, { direction: 'inbound', path: '/acmeX/pay', depositId: 'd-3' });
  insertRow(db, { direction: 'outbound', path: '/cb/platform/pay', target: 'https://acme.example/cb/platform/pay', depositId: 'd-4' });
  insertRow(db, { direction: 'outbound', path: '/platform/pay', target: 'https://bolt.example/platform/pay', depositId: 'd-5' });
  insertRow(db, { direction: 'outbound', path: '/pay', target: 'https://else.example/pay', depositId: 'd-6' });
  db.prepare(`INSERT INTO sandbox_users (user_id, balance) VALUES ('u-1', 800)`).run();
  db.prepare(
    `INSERT INTO sandbox_deposits (deposit_id, user_id, amount, currency, paid_at, pay_response) VALUES ('d-1', 'u-1', 200, 'EUR', '${now}', '{}')`,
  ).run();
  db.close();
  return home;
}

describe('migration 008: every exchange gets its profile', () => {
  it('assigns the rows of two prefixes (and the sends to each operator) to their profiles, leaves the rest unassigned, and keeps the books', async () => {
    const home = version7Home();
    const desk = openDesk(home);
    const all = must(await desk.listExchanges({ direction: 'all', allProfiles: true })).items;
    expect(all.map((x) => [x.depositId, x.direction, x.profile]).reverse()).toEqual([
      ['d-1', 'inbound', 'acme'],
      ['d-1', 'inbound', 'bolt'],
      ['d-2', 'inbound', 'acme'],
      ['d-3', 'inbound', null],
      ['d-4', 'outbound', 'acme'],
      ['d-5', 'outbound', 'bolt'],
      ['d-6', 'outbound', null],
    ]);
    // The active profile's list, another's, and one deposit id under both: two timelines.
    expect(must(await desk.listExchanges({})).items.map((x) => x.path)).toEqual(['/acme', '/acme/pay']);
    expect(must(await desk.getTimeline('d-1')).entries.map((x) => x.path)).toEqual(['/acme/pay']);
    expect(must(await desk.getTimeline('d-1', 'bolt')).entries.map((x) => x.path)).toEqual(['/platform/pay']);
    // The books were the active profile's.
    expect(must(await desk.getSandboxState())).toMatchObject({ users: [{ userId: 'u-1', balance: 800 }], deposits: [{ depositId: 'd-1', amount: 200 }] });
    must(await desk.useProfile('bolt'));
    expect(must(await desk.getSandboxState())).toMatchObject({ users: [], deposits: [] });
  });

  it('a profile list query is an index lookup', async () => {
    const home = version7Home();
    const opened = openDesk(home);
    must(await opened.listExchanges({}));
    const raw = new Database(join(home, DATABASE_FILE), { readonly: true });
    try {
      const plan = (sql: string): string =>
        (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ p: 'acme', d: 'd-1' }) as Array<{ detail: string }>).map((r) => r.detail).join('; ');
      expect(plan(`SELECT id FROM exchanges WHERE profile = @p AND direction = 'inbound' ORDER BY id DESC LIMIT 100`)).toMatch(
        /USING (COVERING )?INDEX exchanges_profile_direction/,
      );
      expect(plan(`SELECT id FROM exchanges WHERE profile = @p AND deposit_id = @d`)).toMatch(/USING (COVERING )?INDEX exchanges_profile_deposit/);
    } finally {
      raw.close();
    }
  });
});
