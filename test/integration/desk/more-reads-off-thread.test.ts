// The desk's other reads of the SQLite log run on reading threads too: following the log, a
// re-verification's pages, a delete's selection and the shared reads (a redelivery's), each made long by
// a filter that walks a large log, delay no callback sent meanwhile (each answered in a small part of
// the read's time, with its row). On the proxy's thread, the first callback sent meanwhile would wait
// for about all of the read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { callbacksBeside as callbacksBesideOf } from '../../helpers/callbacks-beside';
import { must } from '../../helpers/must';
import { SLOW_SEARCH, fillForSlowSearch } from '../../helpers/slow-search-log';
import { tempDirForSuite } from '../../helpers/temp';

const ROWS = 40_000;
const PROFILE = 'acme';
/** The slow search's filters, as the other reads take them: `platform` in every row, `valid` in none. */
const { allProfiles: _all, ...SLOW_FILTER } = SLOW_SEARCH;

let home: { dir: string; remove(): void };
let desk: Desk;
let proxyUrl: string;

beforeAll(async () => {
  home = tempDirForSuite('wager-desk-more-reads-');
  desk = createDesk({ home: home.dir, readBudgetMs: 60_000 });
  must(await desk.saveProfile({ name: PROFILE, callbackPrefix: '/acme', secret: 'the signing secret', allowSelfSigned: true, production: false }));
  must(await desk.useProfile(PROFILE));
  // Bodies of 2,000 characters: testing each row's text is long on a quiet machine too.
  fillForSlowSearch(desk, ROWS, 2_000, PROFILE);
  proxyUrl = must(await desk.startProxy({ port: 0 })).proxy.url!;
}, 120_000);

afterAll(async () => {
  await desk?.close();
  home?.remove();
});

/** Runs a read with callbacks going meanwhile, and checks them (callbacks-beside.ts). */
const callbacksBeside = <T>(read: () => Promise<T>): Promise<T> => callbacksBesideOf(desk, proxyUrl, '/acme/pay')(read);

describe('more reads off the proxy thread', () => {
  it('following the log with a filter that walks it', async () => {
    const page = await callbacksBeside(async () => must(await desk.followExchanges({ afterId: 0, query: SLOW_SEARCH })));
    expect(page.completed).toEqual([]);
    expect(page.more).toBe(false);
  }, 120_000);

  it("a re-verification's pages", async () => {
    const report = await callbacksBeside(async () => must(await desk.reverify({ profile: PROFILE, query: SLOW_FILTER })));
    expect(report.judged).toBe(0);
  }, 120_000);

  it("a delete's selection, counted and then deleted", async () => {
    const filter = { ...SLOW_FILTER, allProfiles: true };
    const counted = await callbacksBeside(async () => must(await desk.deleteExchanges({ filter }, { dryRun: true })));
    expect(counted).toMatchObject({ deleted: 0, lastId: null, dryRun: true });
    const deleted = await callbacksBeside(async () => must(await desk.deleteExchanges({ filter })));
    expect(deleted).toMatchObject({ deleted: 0, dryRun: false });
  }, 120_000);

  it("a redelivery's selection (the reads both engines share)", async () => {
    // Every filled row is a pay whose forward got no answer: the count walks all of them.
    const selection = await callbacksBeside(async () => must(await desk.selectRedelivery({ failed: true, profile: PROFILE })));
    expect(selection.count).toBeGreaterThanOrEqual(ROWS);
  }, 120_000);

  it("a prune's selection by age (a pass over the log) that finds nothing old", async () => {
    const report = await callbacksBeside(async () => must(await desk.prune({ olderThanDays: 1 })));
    expect(report.deleted).toBe(0);
    expect(report.remaining).toBeGreaterThanOrEqual(ROWS);
  }, 120_000);
});
