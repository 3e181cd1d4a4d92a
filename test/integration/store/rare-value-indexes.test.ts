// The verdict and kind indexes hold only rare values: a valid pay or results callback costs no entry in
// them, a filter on a rare value still seeks its rows, a filter on a common one walks the direction's
// index, and every list gives the rows a plain filter over all of them gives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeKind, ExchangeQuery, Verdict } from '../../../src-main/shared/model';
import { VERDICTS } from '../../../src-main/shared/model';
import { connectionOf, openStore, type Store } from '../../../src-main/core/store/sqlite';
import { RARE_KIND, RARE_VERDICT } from '../../../src-main/core/store/rows/rare-values';
import type { RowFilter } from '../../../src-main/core/store/rows/row-filter';
import { filterWhere } from '../../../src-main/core/store/sqlite/row-where';
import { inboundRow } from '../../helpers/exchanges';
import { tempDirForSuite } from '../../helpers/temp';

/** What the store's list takes: one profile, the unassigned rows (null), or every profile's. */
type ListQuery = Omit<ExchangeQuery, 'profile'> & Pick<RowFilter, 'profile'>;

const KINDS: readonly ExchangeKind[] = ['pay', 'results', 'token', 'other'];
const PROFILES = ['acme', 'bolt', null] as const;

interface Planted {
  id: number;
  profile: string | null;
  verdict: Verdict;
  kind: ExchangeKind;
  direction: 'inbound' | 'outbound';
}

let store: Store;
let suite: { dir: string; remove: () => void };
const planted: Planted[] = [];

beforeAll(() => {
  suite = tempDirForSuite();
  store = openStore(suite.dir);
  // Mostly valid callbacks, with every rare verdict and kind sprinkled in, over two profiles and none.
  for (let i = 0; i < 600; i++) {
    const profile = PROFILES[i % 3]!;
    const verdict: Verdict = i % 17 === 0 ? VERDICTS[1 + ((i / 17) % 4)]! : 'valid';
    const kind: ExchangeKind = i % 23 === 0 ? (i % 2 ? 'token' : 'other') : i % 2 ? 'results' : 'pay';
    const direction = i % 29 === 0 ? 'outbound' : 'inbound';
    const { id } = store.exchanges.insert(inboundRow({ profile, kind, direction, signature: { verdict, notes: [], diagnosis: null } }));
    planted.push({ id, profile, verdict, kind, direction });
  }
});

afterAll(() => {
  store.close();
  suite.remove();
});

/** Entries in an index's b-tree, read from its pages (SQLite's dbstat table): an index keeps each key once, on a leaf or an interior page. */
function entriesOf(index: string): number {
  return connectionOf(store).prepare(`SELECT coalesce(sum(ncell), 0) FROM dbstat WHERE name = ?`).pluck().get(index) as number;
}

function planOf(f: RowFilter): string {
  const { where, params } = filterWhere(f);
  const sql = `EXPLAIN QUERY PLAN SELECT id FROM exchanges WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT 101`;
  return (connectionOf(store).prepare(sql).all(params) as Array<{ detail: string }>).map((r) => r.detail).join('; ');
}

describe('the verdict and kind indexes', () => {
  it('hold an entry only for a rare verdict or kind, where the direction index holds every row', () => {
    const rareVerdicts = planted.filter((p) => p.verdict !== 'valid').length;
    const rareKinds = planted.filter((p) => p.kind !== 'pay' && p.kind !== 'results').length;
    expect(rareVerdicts).toBeGreaterThan(20);
    expect(rareKinds).toBeGreaterThan(20);
    expect(entriesOf('exchanges_direction')).toBe(planted.length);
    expect(entriesOf('exchanges_profile_direction')).toBe(planted.length);
    expect(entriesOf('exchanges_verdict')).toBe(rareVerdicts);
    expect(entriesOf('exchanges_profile_verdict')).toBe(rareVerdicts);
    expect(entriesOf('exchanges_kind')).toBe(rareKinds);
    expect(entriesOf('exchanges_profile_kind')).toBe(rareKinds);
  });

  it('are built on the very conditions the queries carry (SQLite uses a partial index only then)', () => {
    const sqlOf = (name: string): string =>
      connectionOf(store).prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`).pluck().get(name) as string;
    for (const name of ['exchanges_verdict', 'exchanges_profile_verdict']) expect(sqlOf(name).endsWith(`WHERE ${RARE_VERDICT}`)).toBe(true);
    for (const name of ['exchanges_kind', 'exchanges_profile_kind']) expect(sqlOf(name).endsWith(`WHERE ${RARE_KIND}`)).toBe(true);
  });

  it('a rare value is a seek on its index, in one profile or across all; a common one walks the direction index', () => {
    for (const scope of [{ profile: 'acme' }, { profile: null }, { allProfiles: true }] as const) {
      const perProfile = !('allProfiles' in scope);
      const prefix = perProfile ? 'exchanges_profile_' : 'exchanges_';
      for (const verdict of VERDICTS.filter((v) => v !== 'valid')) expect(planOf({ ...scope, verdict })).toContain(`INDEX ${prefix}verdict`);
      for (const kind of ['token', 'other'] as const) expect(planOf({ ...scope, direction: 'all', kind })).toContain(`INDEX ${prefix}kind`);
      expect(planOf({ ...scope, verdict: 'valid' })).toContain(`INDEX ${prefix}direction`);
      expect(planOf({ ...scope, kind: 'results' })).toContain(`INDEX ${prefix}direction`);
      // Deposits and users keep their whole indexes, per profile as across all.
      expect(planOf({ ...scope, depositId: 'd1', verdict: 'mismatch' })).toContain(`INDEX ${prefix}deposit`);
      expect(planOf({ ...scope, userId: 'u1', kind: 'token' })).toContain(`INDEX ${prefix}user`);
    }
  });

  it('every list by verdict and kind, in each profile and across all, gives the rows a plain filter gives', () => {
    let compared = 0;
    for (const scope of [{ profile: 'acme' }, { profile: 'bolt' }, { profile: null }, { allProfiles: true }] as const) {
      for (const direction of ['inbound', 'outbound', 'all'] as const) {
        for (const verdict of [undefined, ...VERDICTS]) {
          for (const kind of [undefined, ...KINDS]) {
            const q: ListQuery = { ...scope, direction, limit: 1000 };
            if (verdict) q.verdict = verdict;
            if (kind) q.kind = kind;
            const want = planted
              .filter((p) => ('allProfiles' in scope ? true : p.profile === scope.profile))
              .filter((p) => direction === 'all' || p.direction === direction)
              .filter((p) => !verdict || p.verdict === verdict)
              .filter((p) => !kind || p.kind === kind)
              .map((p) => p.id)
              .reverse();
            expect({ q, ids: store.exchanges.list(q).items.map((x) => x.id) }).toEqual({ q, ids: want });
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(4 * 3 * 6 * 5);
  });
});
