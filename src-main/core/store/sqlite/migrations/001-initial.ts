// The first schema. One row per HTTP exchange, whichever way it went; the key fields of a callback are
// columns so that the UI's queries (newest first, by deposit, by user, by verdict) are index lookups.
import type { Db } from '../db';

const SCHEMA = `
CREATE TABLE exchanges (
  id            INTEGER PRIMARY KEY,
  direction     TEXT    NOT NULL CHECK (direction IN ('inbound', 'outbound')),
  kind          TEXT    NOT NULL CHECK (kind IN ('pay', 'results', 'token', 'other')),
  origin        TEXT    NOT NULL,
  at            TEXT    NOT NULL,
  method        TEXT    NOT NULL,
  path          TEXT    NOT NULL,
  query         TEXT    NOT NULL DEFAULT '',
  target        TEXT,
  req_headers   TEXT    NOT NULL,
  req_body      BLOB    NOT NULL,
  req_size      INTEGER NOT NULL,
  truncated     INTEGER NOT NULL DEFAULT 0,
  remote_address TEXT,
  verdict       TEXT,
  sig_notes     TEXT,
  diagnosis     TEXT,
  findings      TEXT,
  error_count   INTEGER NOT NULL DEFAULT 0,
  deposit_id    TEXT,
  user_id       TEXT,
  result        TEXT,
  game_id       TEXT,
  amount        REAL,
  currency      TEXT,
  tournament_id TEXT,
  res_status    INTEGER,
  res_headers   TEXT,
  res_body      BLOB,
  duration_ms   REAL,
  completed_at  TEXT,
  error         TEXT,
  source_id     INTEGER REFERENCES exchanges(id) ON DELETE SET NULL,
  tags          TEXT
);
CREATE INDEX exchanges_direction ON exchanges (direction, id);
CREATE INDEX exchanges_deposit   ON exchanges (deposit_id, id) WHERE deposit_id IS NOT NULL;
CREATE INDEX exchanges_user      ON exchanges (user_id, id) WHERE user_id IS NOT NULL;
CREATE INDEX exchanges_verdict   ON exchanges (verdict, id);
CREATE INDEX exchanges_kind      ON exchanges (kind, id);
CREATE INDEX exchanges_source    ON exchanges (source_id) WHERE source_id IS NOT NULL;

CREATE TABLE profiles (
  name            TEXT PRIMARY KEY,
  operator_url    TEXT,
  base_url        TEXT,
  operator_id     TEXT,
  upstream        TEXT,
  production      INTEGER NOT NULL DEFAULT 0,
  allow_self_signed INTEGER NOT NULL DEFAULT 0,
  secret_enc      BLOB,
  secret_fp       TEXT,
  api_key_enc     BLOB,
  api_key_fp      TEXT,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL
);

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE sandbox_users (
  user_id TEXT PRIMARY KEY,
  balance REAL NOT NULL
);

CREATE TABLE sandbox_deposits (
  deposit_id TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL,
  amount     REAL NOT NULL,
  currency   TEXT NOT NULL,
  outcome    TEXT,
  paid_at    TEXT NOT NULL,
  settled_at TEXT,
  pay_response TEXT NOT NULL
);

CREATE TABLE check_reports (
  id        INTEGER PRIMARY KEY,
  at        TEXT NOT NULL,
  target    TEXT NOT NULL,
  user_id   TEXT NOT NULL,
  passed    INTEGER NOT NULL,
  failed    INTEGER NOT NULL,
  report    TEXT NOT NULL
);
`;

export function up(db: Db): void {
  db.exec(SCHEMA);
}
