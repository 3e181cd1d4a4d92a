// A team desk's reads on PostgreSQL: each statement carries a statement_timeout of the read budget, and a
// search past it answers as SQLite's does (no rows, stoppedAfterSeconds), another read with the sentence
// that says it stopped; the reads run on a pool, so a long search leaves connections for the list beside
// it (one reading connection made every read wait for the search).
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { connectPostgres } from '../../../src-main/core/store/postgres';
import { must } from '../../helpers/must';
import { migratedDatabase, teamKeyFile, usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';

const server = usePostgres();
const ROWS = 20_000;
/** A word no row holds: the search tests the whole text of every row (none is indexed). */
const NOWHERE = { search: 'nowhere-to-be-found', allProfiles: true };

/** A migrated database holding ROWS pays of 2,000 characters of body each. */
async function filledDatabase(): Promise<string> {
  const url = await migratedDatabase(server());
  const client = await connectPostgres(url);
  try {
    await client.query(
      `INSERT INTO exchanges (direction, kind, origin, at, method, path, req_headers, req_body, req_size, verdict, deposit_id, user_id)
       SELECT 'inbound', 'pay', 'proxy', $1, 'POST', '/platform/pay', '[["content-type","application/json"]]',
              convert_to('{"depositId":"fill-' || g || '","memo":"' || repeat('x', 2000) || '"}', 'UTF8'), 2040, 'mismatch', 'fill-' || g, 'u-' || (g % 97)
       FROM generate_series(1, $2::int) AS g`,
      [new Date().toISOString(), ROWS],
    );
  } finally {
    await client.end();
  }
  return url;
}

function teamDesk(url: string, readBudgetMs: number): Desk {
  const desk = createDesk({ home: tempDir(), database: url, keyFile: teamKeyFile(url), readBudgetMs });
  onTestFinished(() => desk.close());
  return desk;
}

describe("a team desk's read budget and reading pool", () => {
  it('a search past the budget answers that it stopped; another read says so; the next read answers', async () => {
    const url = await filledDatabase();
    const desk = teamDesk(url, 100);
    const page = must(await desk.listExchanges(NOWHERE));
    expect(page.items).toEqual([]);
    expect(page.nextBeforeId).toBeNull();
    expect(page.stoppedAfterSeconds).toBe(0.1);
    // An export of the same search refuses, rather than pass off what it found as the whole.
    const exported = await desk.exportHar(NOWHERE);
    expect(exported.ok).toBe(false);
    if (!exported.ok) expect(exported.error.message).toBe('The read stopped after 0.1 s, its time budget: narrow the filters or the search.');
    const followed = await desk.followExchanges({ afterId: 0, query: NOWHERE });
    expect(followed.ok).toBe(false);
    if (!followed.ok) expect(followed.error.message).toBe('The read stopped after 0.1 s, its time budget: narrow the filters or the search.');
    expect(must(await desk.listExchanges({ allProfiles: true, limit: 1 })).items).toHaveLength(1);
  }, 120_000);

  it('a long search leaves a connection for the list beside it', async () => {
    const url = await filledDatabase();
    const desk = teamDesk(url, 60_000);
    // The pool's connections open on first use: both are open before the timing.
    must(await desk.listExchanges({ allProfiles: true, limit: 1 }));
    const t0 = performance.now();
    const search = desk.listExchanges(NOWHERE).then((r) => ({ page: must(r), ms: performance.now() - t0 }));
    const lists: number[] = [];
    let searching = true;
    void search.finally(() => (searching = false));
    while (searching) {
      const started = performance.now();
      expect(must(await desk.listExchanges({ allProfiles: true, limit: 1 })).items).toHaveLength(1);
      lists.push(performance.now() - started);
    }
    const { page, ms: searchMs } = await search;
    expect(page.items).toEqual([]);
    expect(page.stoppedAfterSeconds).toBeUndefined();
    // Many lists answered one after another while the search ran, each in a part of its time.
    expect(lists.length).toBeGreaterThan(5);
    expect(Math.max(...lists)).toBeLessThan(searchMs / 2);
  }, 120_000);
});
