import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { connectionOf, DATABASE_FILE, DatabaseTooNewError, openStore } from '../../../src-main/core/store/sqlite';
import { LATEST_VERSION } from '../../../src-main/core/store/sqlite/migrations';
import { inboundRow } from '../../helpers/exchanges';
import { tempDir } from '../../helpers/temp';

describe('the store', () => {
  it('creates the schema with WAL, foreign keys and user_version', () => {
    const dir = tempDir();
    const store = openStore(dir);
    expect(connectionOf(store).pragma('journal_mode', { simple: true })).toBe('wal');
    expect(connectionOf(store).pragma('foreign_keys', { simple: true })).toBe(1);
    expect(connectionOf(store).pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    store.close();
    // Opening again is a no-op, not a second migration.
    const again = openStore(dir);
    expect(connectionOf(again).pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    again.close();
  });

  it('refuses a database from a newer version and leaves it untouched', () => {
    const dir = tempDir();
    openStore(dir).close();
    const file = join(dir, DATABASE_FILE);
    const raw = new Database(file);
    raw.pragma(`user_version = ${LATEST_VERSION + 5}`);
    raw.close();
    const before = readFileSync(file);
    expect(() => openStore(dir)).toThrow(DatabaseTooNewError);
    expect(() => openStore(dir)).toThrow(/newer Wager Desk/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('keeps exact request bytes, headers in order, and key fields', () => {
    const store = openStore(tempDir());
    const body = Buffer.from([0xef, 0xbb, 0xbf, 0xff, 0x00, 0x7b, 0x0d, 0x0a]);
    const headers: Array<[string, string]> = [
      ['X-B', '2'],
      ['x-a', '1'],
      ['X-B', '3'],
    ];
    const { id } = store.exchanges.insert(inboundRow({ body, size: body.length, headers }));
    const detail = store.exchanges.get(id)!;
    expect(Buffer.from(detail.request.bodyBase64, 'base64').equals(body)).toBe(true);
    expect(detail.request.headers).toEqual(headers);
    expect(detail.depositId).toBe('d1');
    expect(detail.response).toBeNull();
    store.exchanges.complete(id, {
      response: { status: 201, headers: [['a', 'b']], body: Buffer.from('ok') },
      error: null,
      durationMs: 1.5,
      completedAt: new Date().toISOString(),
    });
    expect(store.exchanges.get(id)!.response).toEqual({ status: 201, headers: [['a', 'b']], bodyBase64: Buffer.from('ok').toString('base64') });
    store.close();
  });

  it('lists newest first with filters and keyset paging', () => {
    const store = openStore(tempDir());
    for (let i = 0; i < 25; i++) {
      store.exchanges.insert(
        inboundRow({
          keys: { depositId: `dep-${i % 5}`, userId: `user-${i % 3}`, result: null, gameId: null, amount: i, currency: 'USD', tournamentId: null },
          signature: { verdict: i % 2 ? 'valid' : 'mismatch', notes: [], diagnosis: null },
        }),
      );
    }
    store.exchanges.insert(inboundRow({ direction: 'outbound', origin: 'replay' }));
    const first = store.exchanges.list({ limit: 10 });
    expect(first.items.map((x) => x.id)).toEqual([25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
    const second = store.exchanges.list({ limit: 10, beforeId: first.nextBeforeId! });
    expect(second.items[0]!.id).toBe(15);
    const third = store.exchanges.list({ limit: 10, beforeId: second.nextBeforeId! });
    expect(third.items).toHaveLength(5);
    expect(third.nextBeforeId).toBeNull();
    expect(store.exchanges.list({ direction: 'all', limit: 1 }).items[0]!.direction).toBe('outbound');
    expect(store.exchanges.list({ depositId: 'dep-2' }).items.every((x) => x.depositId === 'dep-2')).toBe(true);
    expect(store.exchanges.list({ depositId: 'dep-2' }).items).toHaveLength(5);
    expect(store.exchanges.list({ userId: 'user-1', verdict: 'valid' }).items.every((x) => x.userId === 'user-1' && x.signature.verdict === 'valid')).toBe(
      true,
    );
    expect(store.exchanges.list({ search: 'user-' }).items).toHaveLength(25);
    expect(store.exchanges.list({ search: 'dep-4' }).items).toHaveLength(5);
    expect(store.exchanges.counts()).toEqual({ inbound: 25, outbound: 1 });
    store.close();
  });

  it('flags duplicates, results without pay and conflicting outcomes in a timeline', () => {
    const store = openStore(tempDir());
    const keys = (result: string | null) => ({ depositId: 'dx', userId: 'u', result, gameId: null, amount: 1, currency: 'USD', tournamentId: null });
    store.exchanges.insert(inboundRow({ kind: 'results', path: '/platform/results', keys: keys('WIN') }));
    const pay = store.exchanges.insert(inboundRow({ keys: keys(null) }));
    store.exchanges.insert(inboundRow({ keys: keys(null) }));
    store.exchanges.insert(inboundRow({ kind: 'results', path: '/platform/results', keys: keys('REFUND') }));
    const replay = store.exchanges.insert(
      inboundRow({ direction: 'outbound', origin: 'replay', sourceId: pay.id, keys: { ...keys(null), depositId: 'edited' } }),
    );
    const t = store.exchanges.timeline('dx');
    // A replay belongs to the deposit its body names, linked to its source.
    expect(t.entries.map((e) => e.id)).not.toContain(replay.id);
    const edited = store.exchanges.timeline('edited');
    expect(edited.entries.map((e) => [e.id, e.sourceId])).toEqual([[replay.id, pay.id]]);
    expect(t.flags.map((f) => f.flag).sort()).toEqual([
      'conflicting-outcomes',
      'credit-and-refund',
      'duplicate-pay',
      'duplicate-results',
      'results-without-pay',
    ]);
    store.close();
  });

  it('seals secrets: the database and its WAL never hold them in clear; views show only fingerprints', () => {
    const dir = tempDir();
    const store = openStore(dir);
    const secret = 'canary-signing-secret-7f3a';
    const apiKey = 'canary-api-key-91bd';
    const view = store.profiles.save({ name: 'dev', secret, apiKey, operatorUrl: 'http://127.0.0.1:1' });
    expect(view.secret).toEqual({ set: true, fingerprint: expect.stringMatching(/^[0-9a-f]{8}$/) });
    expect(JSON.stringify(store.profiles.list())).not.toContain(secret);
    expect(store.profiles.secrets('dev')).toMatchObject({ secret, apiKey });
    for (const file of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, file));
      expect(bytes.includes(secret), file).toBe(false);
      expect(bytes.includes(apiKey), file).toBe(false);
    }
    store.close();
  });

  it('updates only given profile fields, duplicates, activates and removes', () => {
    const store = openStore(tempDir());
    store.profiles.save({ name: 'a', secret: 's1', operatorUrl: 'http://127.0.0.1:1' });
    expect(store.profiles.activeName()).toBe('a');
    store.profiles.save({ name: 'a', production: true });
    expect(store.profiles.secrets('a')).toMatchObject({ secret: 's1', operatorUrl: 'http://127.0.0.1:1', production: true });
    store.profiles.duplicate('a', 'b');
    expect(store.profiles.secrets('b')!.secret).toBe('s1');
    store.profiles.use('b');
    expect(store.profiles.list().find((p) => p.active)!.name).toBe('b');
    store.profiles.remove('b');
    expect(store.profiles.activeName()).toBeNull();
    expect(() => store.profiles.save({ name: 'c', operatorUrl: 'ftp://x' })).toThrow(/http/);
    expect(() => store.profiles.save({ name: '' })).toThrow(/profile name/);
    expect(() => store.profiles.use('zzz')).toThrow(/No profile/);
    store.close();
  });
});
