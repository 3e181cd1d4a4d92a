// The tables a copy between the two engines carries, with each column's kind: what the log holds, in
// the order that lets later tables refer to earlier rows. Derived tables are not here: the search index
// and its state are rebuilt by each engine from the rows (and other engine-private tables a later
// SQLite migration adds are left alone). A column either side has that this list does not name stops the
// copy with its name, rather than leave it behind.

/**
 * How a value is carried. int: a 64-bit integer (exact, as a bigint); real: a double; flag: 0/1 in
 * SQLite, boolean in PostgreSQL; text: a string; bytes: exact bytes.
 */
export type ColumnKind = 'int' | 'real' | 'flag' | 'text' | 'bytes';

export interface CopiedTable {
  name: string;
  /** The primary key's columns: the copy walks each table in this key's (binary) order, and resumes after the target's highest key. */
  key: readonly string[];
  /** Whether the key is an identity id (the target's id sequence moves past the copied ids). */
  identity: boolean;
  columns: Readonly<Record<string, ColumnKind>>;
}

export const COPIED_TABLES: readonly CopiedTable[] = [
  {
    name: 'profiles',
    key: ['name'],
    identity: false,
    columns: {
      name: 'text',
      operator_url: 'text',
      base_url: 'text',
      operator_id: 'text',
      upstream: 'text',
      production: 'flag',
      allow_self_signed: 'flag',
      secret_enc: 'bytes',
      secret_fp: 'text',
      api_key_enc: 'bytes',
      api_key_fp: 'text',
      created_at: 'text',
      updated_at: 'text',
      callback_prefix: 'text',
      amounts: 'text',
      previous_secret_enc: 'bytes',
      previous_secret_fp: 'text',
      public_url: 'text',
      currency: 'text',
      balance_url: 'text',
      balance_path: 'text',
      balance_units: 'text',
      balance_headers_enc: 'bytes',
      balance_headers: 'text',
      answer_balance_path: 'text',
      balance_url_enc: 'bytes',
    },
  },
  { name: 'settings', key: ['key'], identity: false, columns: { key: 'text', value: 'text' } },
  {
    name: 'sandbox_users',
    key: ['profile', 'user_id'],
    identity: false,
    columns: { profile: 'text', user_id: 'text', balance: 'real' },
  },
  {
    name: 'sandbox_deposits',
    key: ['profile', 'deposit_id'],
    identity: false,
    columns: {
      profile: 'text',
      deposit_id: 'text',
      user_id: 'text',
      amount: 'real',
      currency: 'text',
      outcome: 'text',
      paid_at: 'text',
      settled_at: 'text',
      pay_response: 'text',
      results_response: 'text',
    },
  },
  {
    name: 'check_reports',
    key: ['id'],
    identity: true,
    columns: { id: 'int', at: 'text', target: 'text', user_id: 'text', passed: 'int', failed: 'int', report: 'text' },
  },
  {
    name: 'proxy_faults',
    key: ['id'],
    identity: true,
    columns: {
      id: 'int',
      path: 'text',
      action: 'text',
      status: 'int',
      body: 'text',
      delay_ms: 'int',
      max_count: 'int',
      ratio: 'real',
      matched: 'int',
      applied: 'int',
      created_at: 'text',
    },
  },
  {
    name: 'saved_requests',
    key: ['profile', 'name'],
    identity: false,
    columns: {
      profile: 'text',
      name: 'text',
      method: 'text',
      path: 'text',
      headers: 'text',
      body: 'bytes',
      signature: 'text',
      saved_at: 'text',
    },
  },
  {
    name: 'exchanges',
    key: ['id'],
    identity: true,
    columns: {
      id: 'int',
      direction: 'text',
      kind: 'text',
      origin: 'text',
      at: 'text',
      method: 'text',
      path: 'text',
      query: 'text',
      target: 'text',
      req_headers: 'text',
      req_body: 'bytes',
      req_size: 'int',
      truncated: 'flag',
      remote_address: 'text',
      verdict: 'text',
      sig_notes: 'text',
      diagnosis: 'text',
      findings: 'text',
      error_count: 'int',
      deposit_id: 'text',
      user_id: 'text',
      result: 'text',
      game_id: 'text',
      amount: 'real',
      currency: 'text',
      tournament_id: 'text',
      res_status: 'int',
      res_headers: 'text',
      res_body: 'bytes',
      duration_ms: 'real',
      completed_at: 'text',
      error: 'text',
      source_id: 'int',
      tags: 'text',
      sig_secret: 'text',
      reverified_at: 'text',
      reverified_with: 'text',
      original_verdict: 'text',
      scheme: 'text',
      profile: 'text',
    },
  },
];

export const columnsOf = (table: CopiedTable): string[] => Object.keys(table.columns);

/** The exchanges' columns and their kinds. */
export const EXCHANGE_COLUMNS = COPIED_TABLES.find((t) => t.name === 'exchanges')!.columns;
