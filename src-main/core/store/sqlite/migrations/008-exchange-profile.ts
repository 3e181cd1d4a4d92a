// Every exchange records the profile it belongs to (the one whose callback prefix received it, or the
// one used to send it); NULL: unassigned. The list's filters each get an index that starts with the
// profile, so a list, a timeline or a redelivery of one profile stays an index lookup. The sandbox's
// books are kept per profile too: one operator's deposit ids may be another's.
//
// Older rows get a profile where it can be told: an inbound row whose path lies under exactly one
// profile's callback prefix; an outbound row whose target lies under exactly one profile's operator
// URL or upstream. Anything else stays unassigned. Older sandbox books belonged to whichever profile
// was active: they go to it ('' without one).
import type { Db } from '../db';

const DEFAULT_PREFIX = '/platform';

interface ProfileRow {
  name: string;
  callback_prefix: string | null;
  operator_url: string | null;
  upstream: string | null;
}

/** Whether `path` is `prefix` or lies under it at a segment boundary. */
export function isUnderPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

/** The one profile an older row can be told to belong to, or null (none or several). */
function onlyOne(names: readonly string[]): string | null {
  return names.length === 1 ? names[0]! : null;
}

function baseOf(url: string | null): string | null {
  if (url === null || url.trim() === '') return null;
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

function backfill(db: Db): void {
  const profiles = db.prepare('SELECT name, callback_prefix, operator_url, upstream FROM profiles').all() as ProfileRow[];
  if (profiles.length === 0) return;
  const prefixes = profiles.map((p) => ({ name: p.name, prefix: p.callback_prefix ?? DEFAULT_PREFIX }));
  const bases = profiles.flatMap((p) =>
    [baseOf(p.operator_url), baseOf(p.upstream)].filter((b): b is string => b !== null).map((base) => ({ name: p.name, base })),
  );
  const set = db.prepare('UPDATE exchanges SET profile = ? WHERE id = ?');
  const inbound = db.prepare(`SELECT id, path FROM exchanges WHERE direction = 'inbound'`).iterate() as IterableIterator<{ id: number; path: string }>;
  const assigned: Array<[string, number]> = [];
  for (const row of inbound) {
    const name = onlyOne(prefixes.filter((p) => isUnderPrefix(row.path, p.prefix)).map((p) => p.name));
    if (name !== null) assigned.push([name, row.id]);
  }
  if (bases.length > 0) {
    const outbound = db.prepare(`SELECT id, target FROM exchanges WHERE direction = 'outbound' AND target IS NOT NULL`).iterate() as IterableIterator<{
      id: number;
      target: string;
    }>;
    for (const row of outbound) {
      const names = [...new Set(bases.filter((b) => row.target === b.base || row.target.startsWith(`${b.base}/`)).map((b) => b.name))];
      const name = onlyOne(names);
      if (name !== null) assigned.push([name, row.id]);
    }
  }
  for (const [name, id] of assigned) set.run(name, id);
}

const SANDBOX_PER_PROFILE = `
CREATE TABLE sandbox_users_by_profile (
  profile TEXT NOT NULL,
  user_id TEXT NOT NULL,
  balance REAL NOT NULL,
  PRIMARY KEY (profile, user_id)
);
INSERT INTO sandbox_users_by_profile (profile, user_id, balance) SELECT @book, user_id, balance FROM sandbox_users;
DROP TABLE sandbox_users;
ALTER TABLE sandbox_users_by_profile RENAME TO sandbox_users;

CREATE TABLE sandbox_deposits_by_profile (
  profile    TEXT NOT NULL,
  deposit_id TEXT NOT NULL,
  user_id    TEXT NOT NULL,
  amount     REAL NOT NULL,
  currency   TEXT NOT NULL,
  outcome    TEXT,
  paid_at    TEXT NOT NULL,
  settled_at TEXT,
  pay_response TEXT NOT NULL,
  results_response TEXT,
  PRIMARY KEY (profile, deposit_id)
);
INSERT INTO sandbox_deposits_by_profile (profile, deposit_id, user_id, amount, currency, outcome, paid_at, settled_at, pay_response, results_response)
  SELECT @book, deposit_id, user_id, amount, currency, outcome, paid_at, settled_at, pay_response, results_response FROM sandbox_deposits;
DROP TABLE sandbox_deposits;
ALTER TABLE sandbox_deposits_by_profile RENAME TO sandbox_deposits;
`;

export function up(db: Db): void {
  db.exec(`
    ALTER TABLE exchanges ADD COLUMN profile TEXT;
    CREATE INDEX exchanges_profile_direction ON exchanges (profile, direction, id);
    CREATE INDEX exchanges_profile_deposit   ON exchanges (profile, deposit_id, id) WHERE deposit_id IS NOT NULL;
    CREATE INDEX exchanges_profile_user      ON exchanges (profile, user_id, id) WHERE user_id IS NOT NULL;
    CREATE INDEX exchanges_profile_verdict   ON exchanges (profile, verdict, id);
    CREATE INDEX exchanges_profile_kind      ON exchanges (profile, kind, id);
  `);
  backfill(db);
  const active = db.prepare(`SELECT value FROM settings WHERE key = 'active-profile'`).pluck().get() as string | undefined;
  // exec takes no parameters: the book name is quoted as an SQL string literal.
  const book = `'${(active ?? '').replaceAll("'", "''")}'`;
  db.exec(SANDBOX_PER_PROFILE.replaceAll('@book', book));
}
