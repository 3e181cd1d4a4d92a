// A desk's log with something in every column of every copied table: real sealed secrets (saved through
// the desk), bodies that are not UTF-8, an empty body, links between exchanges, ids with gaps, doubles that
// print long, text beyond ASCII. A copy that loses, rounds or re-encodes anything fails a comparison.
import type { Desk } from '../../src-main/core/desk';
import { COPIED_TABLES } from '../../src-main/core/store/copy';
import type { Db } from '../../src-main/core/store/sqlite';
import { sqliteOf } from './desk';

const AT = '2026-03-01T10:00:00.000Z';
/** Bytes no UTF-8 decoder would keep: a lone continuation byte, an invalid lead, a NUL, a BOM. */
export const NOT_UTF8 = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0xef, 0xbb, 0xbf, 0x7b, 0x7d]);

function insert(db: Db, table: string, row: Record<string, unknown>): void {
  const cols = Object.keys(row);
  db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`).run(row);
}

function exchange(id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    direction: 'inbound',
    kind: 'pay',
    origin: 'proxy',
    at: AT,
    method: 'POST',
    path: '/acme/pay',
    req_headers: JSON.stringify([['content-type', 'application/json']]),
    req_body: Buffer.from(`{"depositId":"dep-${id}"}`),
    req_size: 20,
    ...extra,
  };
}

/** Fills a fresh desk's log. Returns the number of exchanges written. */
export async function fillEveryColumn(desk: Desk, bulkExchanges = 40): Promise<number> {
  const saved = await desk.saveProfile({
    name: 'acme',
    operatorUrl: 'https://operator.example/api',
    baseUrl: 'https://platform.example',
    operatorId: 'op-1',
    upstream: 'https://operator.example/api',
    production: true,
    allowSelfSigned: true,
    callbackPrefix: '/acme',
    amounts: 'decimal',
    currency: 'EUR',
    publicUrl: 'https://tunnel.example',
    secret: 'the current secret',
    previousSecret: 'the previous secret',
    apiKey: 'an api key',
    balanceUrl: 'https://operator.example/balance/{userId}',
    balancePath: '$.balance',
    balanceUnits: 'major',
    balanceHeaders: [['x-api-key', 'probe credential']],
    answerBalancePath: '$.balance',
  });
  if (!saved.ok) throw new Error(saved.error.message);
  const beta = await desk.saveProfile({ name: 'beta 2', callbackPrefix: '/beta' });
  if (!beta.ok) throw new Error(beta.error.message);
  const db = sqliteOf(desk);
  db.transaction(() => {
    insert(db, 'settings', { key: 'sandbox-starting-balance', value: '2500.5' });
    insert(db, 'sandbox_users', { profile: 'acme', user_id: 'u1', balance: 0.1 + 0.2 });
    insert(db, 'sandbox_users', { profile: 'acme', user_id: 'U1', balance: 2 ** 53 + 2 });
    insert(db, 'sandbox_users', { profile: '', user_id: 'u1', balance: 1e-7 });
    insert(db, 'sandbox_users', { profile: '', user_id: 'üser ✓ 𝄞', balance: -1.5 });
    insert(db, 'sandbox_deposits', {
      profile: 'acme',
      deposit_id: 'dep-1',
      user_id: 'u1',
      amount: 12.34,
      currency: 'EUR',
      outcome: 'WIN',
      paid_at: AT,
      settled_at: AT,
      pay_response: '{"status":200,"body":"{\\"balance\\": 1}"}',
      results_response: '{"status":200,"body":"{}"}',
    });
    insert(db, 'sandbox_deposits', { profile: 'beta 2', deposit_id: 'dep-1', user_id: 'u2', amount: 1, currency: 'USD', paid_at: AT, pay_response: '{}' });
    insert(db, 'check_reports', {
      id: 7,
      at: AT,
      target: 'https://operator.example/api',
      user_id: 'u1',
      passed: 10,
      failed: 2,
      report: '{"lines": ["a",  "b"]}',
    });
    insert(db, 'check_reports', { id: 9, at: AT, target: 't', user_id: 'u1', passed: 0, failed: 0, report: '{}' });
    insert(db, 'proxy_faults', {
      id: 3,
      path: 'pay',
      action: 'status',
      status: 503,
      body: 'busy',
      delay_ms: 250,
      max_count: 4,
      ratio: 0.5,
      matched: 2,
      applied: 1,
      created_at: AT,
    });
    insert(db, 'proxy_faults', { id: 4, action: 'reset', created_at: AT });
    insert(db, 'saved_requests', {
      profile: 'acme',
      name: 'refund ünïcode',
      method: 'POST',
      path: '/acme/results',
      headers: '[["x","y"]]',
      body: NOT_UTF8,
      signature: 'resign',
      saved_at: AT,
    });
    // Every column of the exchanges table set, on a row linked from later ones.
    insert(
      db,
      'exchanges',
      exchange(1, {
        query: 'a=1&b=%FF',
        target: 'https://operator.example/api/pay',
        req_body: NOT_UTF8,
        req_size: 2 ** 40,
        truncated: 1,
        remote_address: '203.0.113.9',
        verdict: 'valid',
        sig_notes: '["note"]',
        diagnosis: '{"kind":"none"}',
        findings: '[{"level":"error","code":"x"}]',
        error_count: 1,
        deposit_id: 'dep-1',
        user_id: 'u1',
        result: 'WIN',
        game_id: 'g-1',
        amount: 0.1 + 0.2,
        currency: 'EUR',
        tournament_id: 't-1',
        res_status: 200,
        res_headers: '[["content-type","application/json"]]',
        res_body: Buffer.from([0x00, 0xff, 0x10]),
        duration_ms: 12.345678901234567,
        completed_at: AT,
        error: 'upstream said ∅',
        tags: '["x"]',
        sig_secret: 'previous',
        reverified_at: AT,
        reverified_with: 'acme fp:abcd',
        original_verdict: 'invalid',
        scheme: 'https',
        profile: 'acme',
      }),
    );
    insert(
      db,
      'exchanges',
      exchange(2, { direction: 'outbound', origin: 'replay', source_id: 1, req_body: Buffer.alloc(0), res_body: Buffer.alloc(0), res_status: 204 }),
    );
    insert(db, 'exchanges', exchange(5, { origin: 'replay', source_id: 2, profile: 'beta 2', path: '/beta/pay', kind: 'results' }));
    for (let i = 0; i < bulkExchanges; i += 1) insert(db, 'exchanges', exchange(100 + i * 3, { source_id: i % 2 === 0 ? 5 : null, amount: i / 7 }));
  })();
  return 3 + bulkExchanges;
}

/** Every copied table of a SQLite log, each row's every column (SELECT *), integers exact, in key order. */
export function dumpLog(db: Db): Record<string, { columns: string[]; rows: unknown[][] }> {
  const out: Record<string, { columns: string[]; rows: unknown[][] }> = {};
  for (const t of COPIED_TABLES) {
    const stmt = db
      .prepare(`SELECT * FROM ${t.name} ORDER BY ${t.key.join(', ')}`)
      .safeIntegers(true)
      .raw(true);
    out[t.name] = { columns: stmt.columns().map((c) => c.name), rows: stmt.all() as unknown[][] };
  }
  return out;
}
