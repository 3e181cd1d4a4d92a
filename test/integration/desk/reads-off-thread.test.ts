// The desk's reads run on reading threads: a search that takes long on a large log delays no callback
// sent meanwhile (each is answered in a small part of the search's time and has its row); a search past
// its budget answers with what it found and says it stopped; a web client that goes away stops its search
// (its thread is ended: better-sqlite3 cannot interrupt a statement).
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { startWebUi, type WebUi } from '../../../src-main/cli/web';
import { callbacksBeside } from '../../helpers/callbacks-beside';
import { apiCall, tokenOf } from '../web/http-raw';
import { storeOf } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { SLOW_SEARCH, fillForSlowSearch } from '../../helpers/slow-search-log';
import { tempDirForSuite } from '../../helpers/temp';
import { READER_NICE } from '../../../src-main/core/store/sqlite/reading-threads';

const ROWS = 40_000;

/** This process's threads (the main one is the one whose id is the pid): id, nice value and CPU ticks so far. */
function threads(): Array<{ tid: number; main: boolean; nice: number; ticks: number }> {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // After "pid (name) ": state is field 3; utime 14, stime 15, nice 19 (1-based, man 5 proc).
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [{ tid: Number(tid), main: Number(tid) === process.pid, nice: Number(f[16]), ticks: Number(f[11]) + Number(f[12]) }];
    } catch {
      return []; // the thread ended while listed
    }
  });
}

/** CPU ticks of each thread at the readers' nice, by thread id: a thread that ends (an idle export thread) leaves the map, so no sum drops with it. */
const readersTicks = (): Map<number, number> => new Map(threads().flatMap((t) => (t.nice === READER_NICE ? [[t.tid, t.ticks] as const] : [])));

let home: { dir: string; remove(): void };
let desk: Desk;
let ui: WebUi;
let proxyUrl: string;
let bearer: Record<string, string>;

beforeAll(async () => {
  home = tempDirForSuite('wager-desk-reads-');
  desk = createDesk({ home: home.dir, readBudgetMs: 60_000 });
  // Bodies of 2,000 characters: the search tests each row's text, long enough on a quiet machine too.
  fillForSlowSearch(desk, ROWS, 2_000);
  proxyUrl = must(await desk.startProxy({ port: 0 })).proxy.url!;
  ui = await startWebUi(desk, { port: 0 });
  bearer = { authorization: `Bearer ${tokenOf(ui.url)}` };
}, 120_000);

afterAll(async () => {
  await ui?.close();
  await desk?.close();
  home?.remove();
});

describe('reads off the proxy thread', () => {
  // The search takes a second or more on a quiet machine: far past a budget of 50 ms, which a one-row read
  // that follows fits in.
  it('a search past its budget answers with what it found and says it stopped', async () => {
    const budgeted = createDesk({ home: home.dir, readBudgetMs: 50 });
    try {
      const page = must(await budgeted.listExchanges(SLOW_SEARCH));
      expect(page.stoppedAfterSeconds).toBeGreaterThanOrEqual(0.05);
      expect(page.nextBeforeId).toBeNull();
      // An export of the same search refuses, rather than pass off what it found as the whole.
      const exported = await budgeted.exportHar(SLOW_SEARCH);
      expect(exported.ok).toBe(false);
      if (!exported.ok) expect(exported.error.message).toMatch(/^The read stopped after [\d.]+ s, its time budget/);
      // The next read gets a fresh thread and answers.
      expect(must(await budgeted.listExchanges({ allProfiles: true, limit: 1 })).items).toHaveLength(1);
    } finally {
      await budgeted.close();
    }
  }, 60_000);

  it('a long search delays no callback sent meanwhile, and each has its row', async () => {
    const page = await callbacksBeside(desk, proxyUrl, '/pay')(async () => must(await desk.listExchanges(SLOW_SEARCH)));
    expect(page.items).toEqual([]);
    expect(page.stoppedAfterSeconds).toBeUndefined();
  }, 120_000);

  // Linux only: there a thread's nice is its own; elsewhere the call would set the whole process's.
  it.runIf(process.platform === 'linux')(
    'a search walks the log at a lower priority than the thread that answers callbacks',
    async () => {
      const before = readersTicks();
      must(await desk.listExchanges(SLOW_SEARCH));
      // The search's CPU was spent on threads at the readers' nice, and the main thread is not one of them.
      const grew = [...readersTicks()].filter(([tid, ticks]) => ticks > (before.get(tid) ?? 0));
      expect(grew.length).toBeGreaterThan(0);
      const main = threads().find((t) => t.main)!;
      expect(main.nice).not.toBe(READER_NICE);
    },
    120_000,
  );

  it('a web client that goes away stops its search on its reading thread', async () => {
    const store = storeOf(desk);
    const before = store.readStats().abandoned;
    const answered: boolean[] = [];
    const leaving = [0, 1].map(() => {
      const body = JSON.stringify([SLOW_SEARCH]);
      const req = request({
        host: '127.0.0.1',
        port: ui.port,
        method: 'POST',
        path: '/api/listExchanges',
        headers: { ...bearer, host: `127.0.0.1:${ui.port}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
      });
      const done = new Promise<void>((resolve) => {
        req.on('response', () => (answered.push(true), resolve()));
        req.on('close', () => resolve());
        req.on('error', () => resolve());
      });
      req.end(body);
      return { req, done };
    });
    // Both searches run on the reading threads; their clients leave before they can end.
    await expect.poll(() => store.readStats().running, { timeout: 30_000 }).toBe(2);
    for (const l of leaving) l.req.destroy();
    await Promise.all(leaving.map((l) => l.done));
    expect(answered).toEqual([]);
    await expect.poll(() => store.readStats().abandoned, { timeout: 10_000 }).toBe(before + 2);
    // The threads were ended and are replaced: the next read answers.
    const list = await apiCall(ui.port, 'listExchanges', [{ allProfiles: true, limit: 1 }], bearer);
    expect(list.status).toBe(200);
    expect((JSON.parse(list.body) as { value: { items: unknown[] } }).value.items).toHaveLength(1);
  }, 120_000);
});
