// Benchmark 2: the store at scale. Generates a capture log through the real ExchangeStore (insert then
// complete, as the proxy does, in transactions of TX_ROWS), then times the UI's queries through the
// real ExchangeStore.list / timeline / get / counts, shows each query's plan, and compares it with the
// same SQL barred from the indexes (NOT INDEXED), measured in the same run on the same file.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { connectionOf, DATABASE_FILE, ExchangeStore, openStore, type Store } from '../src-main/core/store/sqlite';
import { SUMMARY_COLUMNS } from '../src-main/core/store/rows/exchange-rows';
import { TextSearch, textMatchParams } from '../src-main/core/store/sqlite/text-search';
import type { ExchangeQuery } from '../src-main/shared/model';
import { generateRows, userIdOf, USERS } from './lib/exchange-rows';
import { indexBacklogUnderWrites, type BacklogRun } from './lib/text-backlog';
import { rng } from './lib/rng';
import { queryPlan, spyOnSql, withoutIndexes, type SpiedCall } from './lib/sql-spy';
import { fmtBytes, fmtInt, fmtMs, fmtRatio, percentile, timeSync } from './lib/stats';
import { table } from './lib/table';

const TX_ROWS = 5_000;

export interface StoreBenchOptions {
  rows: number;
  /** Timed calls per query (each with its own arguments), and a time cap per query. */
  iterations: number;
  maxMsPerQuery: number;
  baselineIterations: number;
  maxMsPerBaseline: number;
  /** Data directory; a database already holding `rows` exchanges there is reused. */
  dir: string;
  /** Another ExchangeStore class to time (the same constructor), e.g. the previous version, for before/after. */
  storeClass?: typeof ExchangeStore;
  log?: (line: string) => void;
}

export interface TimedQuery {
  name: string;
  /** The ExchangeStore call, as code. */
  call: string;
  calls: number;
  p50: number;
  p95: number;
  /** Rows the last call returned. */
  rows: number;
  sql: string;
  plan: string[];
  baseline: { calls: number; p50: number; p95: number; plan: string[] } | null;
  /** Baseline p50 over indexed p50. */
  speedup: number | null;
  /** The indexes the plan uses and whether it scans a whole table/index or sorts (for the table). */
  planSummary: string;
  /** A step that reads a whole table or index (with ORDER BY id DESC LIMIT a rowid walk stops early; the timings tell). */
  scans: boolean;
}

export interface StoreBenchResult {
  rows: number;
  reused: boolean;
  generateMs: number | null;
  insertsPerSecond: number | null;
  fileBytes: number;
  bytesPerRow: number;
  /** The text index's backlog filled in this run by the background indexer while captures were written (null: the reused file had it already). */
  textIndex: BacklogRun | null;
  /** Text searches with rows written since the indexer stopped (what a search tests directly). */
  unindexed: { rows: number; searches: Array<{ name: string; p50: number; p95: number; rows: number }> };
  queries: TimedQuery[];
}

interface QuerySpec {
  name: string;
  call: string;
  /** Runs the query for the i-th call; returns the number of rows it produced. */
  run(x: ExchangeStore, i: number): number;
}

function countRows(store: Store): number {
  return connectionOf(store).prepare('SELECT count(*) FROM exchanges').pluck().get() as number;
}

/** Fills a store with `rows` synthetic captures through ExchangeStore.insert + complete, TX_ROWS a transaction. */
export function fillExchanges(
  store: Store,
  rows: number,
  log: (line: string) => void,
  exchanges: Pick<ExchangeStore, 'insert' | 'complete'> = store.exchanges,
): { ms: number; deposits: string[] } {
  const deposits: string[] = [];
  const ids: number[] = [];
  const t0 = performance.now();
  const gen = generateRows(rows, 42, deposits);
  const batch = connectionOf(store).transaction((n: number) => {
    for (let k = 0; k < n; k++) {
      const step = gen.next();
      if (step.done) return;
      const { row, completion, sourceIndex } = step.value;
      const sourceId = sourceIndex === null ? null : (ids[sourceIndex] ?? null);
      const id = exchanges.insert({ ...row, sourceId }).id;
      ids.push(id);
      exchanges.complete(id, completion);
    }
  });
  let lastLog = t0;
  for (let done = 0; done < rows; done += TX_ROWS) {
    batch(Math.min(TX_ROWS, rows - done));
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(`  generated ${done + TX_ROWS} of ${rows} rows...`);
    }
  }
  return { ms: performance.now() - t0, deposits };
}

/** Deposit ids and the like that exist, drawn from the file itself (so a reused file works too). */
function sampleArguments(store: Store, count: number): { deposits: string[]; replayed: string[] } {
  // Evenly spread over the log: old and new deposits alike.
  const max = connectionOf(store).prepare('SELECT max(id) FROM exchanges').pluck().get() as number;
  const stride = Math.max(1, Math.floor(max / (count * 2)));
  const picked = connectionOf(store)
    .prepare('SELECT deposit_id FROM exchanges WHERE id % ? = 0 AND deposit_id IS NOT NULL LIMIT ?')
    .pluck()
    .all(stride, count * 2) as string[];
  const replayed = connectionOf(store)
    .prepare(`SELECT s.deposit_id FROM exchanges r JOIN exchanges s ON s.id = r.source_id WHERE r.source_id IS NOT NULL LIMIT ?`)
    .pluck()
    .all(count) as string[];
  return { deposits: picked.length > 0 ? picked : ['none'], replayed: replayed.length > 0 ? replayed : picked };
}

function specs(store: Store, iterations: number): QuerySpec[] {
  const { deposits, replayed } = sampleArguments(store, iterations);
  const pick = rng(7);
  const user = (): string => userIdOf(Math.floor(pick() * USERS));
  const maxId = connectionOf(store).prepare('SELECT max(id) FROM exchanges').pluck().get() as number;
  const at = <T>(list: readonly T[], i: number): T => list[i % list.length]!;
  const page = (x: ExchangeStore, q: ExchangeQuery): number => x.list(q).items.length;
  const text = new TextSearch(connectionOf(store));
  // The capture list asks for 200 rows a page (src-renderer/store/captures-slice.ts PAGE_SIZE).
  const limit = 200;
  return [
    { name: 'first page', call: 'list({limit:200})', run: (x) => page(x, { limit }) },
    { name: 'first page, all directions', call: "list({direction:'all',limit:200})", run: (x) => page(x, { direction: 'all', limit }) },
    {
      name: 'page deep in the log',
      call: 'list({beforeId,limit:200})',
      run: (x, i) => page(x, { beforeId: Math.floor(maxId * (0.1 + 0.8 * (((i * 7919) % 1000) / 1000))), limit }),
    },
    { name: 'by depositId', call: 'list({depositId})', run: (x, i) => page(x, { depositId: at(deposits, i), limit }) },
    { name: 'by userId', call: 'list({userId})', run: (x) => page(x, { userId: user(), limit }) },
    { name: 'by verdict (rare: mismatch)', call: "list({verdict:'mismatch'})", run: (x) => page(x, { verdict: 'mismatch', limit }) },
    { name: 'by verdict (common: valid)', call: "list({verdict:'valid'})", run: (x) => page(x, { verdict: 'valid', limit }) },
    { name: 'by kind and result', call: "list({kind:'results',result:'DRAW'})", run: (x) => page(x, { kind: 'results', result: 'DRAW', limit }) },
    { name: 'by verdict and user', call: "list({verdict:'mismatch',userId})", run: (x) => page(x, { verdict: 'mismatch', userId: user(), limit }) },
    { name: 'deposit timeline', call: 'timeline(depositId)', run: (x, i) => x.timeline(at(deposits, i)).entries.length },
    { name: 'timeline with a replay', call: 'timeline(depositId)', run: (x, i) => x.timeline(at(replayed, i)).entries.length },
    { name: 'search: a whole user id', call: 'list({search:userId})', run: (x) => page(x, { search: user(), limit }) },
    { name: 'search: a deposit prefix', call: 'list({search:8 chars})', run: (x, i) => page(x, { search: at(deposits, i).slice(0, 8), limit }) },
    {
      name: 'search: a broad prefix',
      call: "list({search:'user-1'})",
      run: (x, i) => page(x, { search: `user-${1 + (i % 9)}`, limit }),
    },
    { name: 'search: no match', call: "list({search:'zz'})", run: (x) => page(x, { search: 'zz-no-such-id', limit }) },
    {
      name: 'search: one character',
      call: "list({search:'u'|'a'|'0'|'f'})",
      run: (x, i) => page(x, { search: at(['u', 'a', '0', 'f'], i), limit }),
    },
    {
      name: 'search: 1 char + 2 rare filters',
      call: "list({search:'a',verdict:'missing',kind:'pay'})",
      run: (x, i) => page(x, { search: at(['a', '0', 'f'], i), verdict: 'missing', kind: 'pay', limit }),
    },
    // Text searches (three characters or more) go through the trigram index over the whole stored text.
    {
      name: 'text: part of a deposit id',
      call: 'list({search:5 middle chars})',
      run: (x, i) => page(x, { search: at(deposits, i).slice(9, 14), limit }),
    },
    { name: 'text: a body value', call: 'list({search:\'"amount":1\'})', run: (x, i) => page(x, { search: `"amount":${1 + (i % 9)}`, limit }) },
    { name: 'text: in every row', call: "list({search:'application/json'})", run: (x) => page(x, { search: 'application/json', limit }) },
    {
      name: 'text: common + 2 rare filters',
      call: "list({search:'pay',verdict:'missing',kind:'pay'})",
      run: (x) => page(x, { search: '/pay', verdict: 'missing', kind: 'pay', limit }),
    },
    { name: 'text: no match', call: "list({search:'no-such-text'})", run: (x, i) => page(x, { search: `no-such-text-${i}`, limit }) },
    // A common word with a narrow filter: the plan starts from the filter's index; the same call index
    // first (the plan not taken) for comparison.
    { name: 'text: common + a user', call: "list({search:'/pay',userId})", run: (x) => page(x, { search: '/pay', userId: user(), limit }) },
    {
      name: 'text: common + a user, index first',
      call: 'TextSearch.indexFirst (forced)',
      run: () => {
        const u = user();
        const where = ['direction = @direction', 'user_id = @user'];
        const bound = { direction: 'inbound', user: u, ...textMatchParams('/pay') };
        return Math.min(limit, text.indexFirst(where, bound, Number.MAX_SAFE_INTEGER, limit).length);
      },
    },
    { name: 'one exchange (detail)', call: 'get(id)', run: (x, i) => (x.get(1 + ((i * 7919) % maxId)) ? 1 : 0) },
    { name: 'counts (status bar)', call: 'counts()', run: (x) => x.counts().inbound },
  ];
}

/** One word for a plan: the indexes it uses, and whether it reads a whole table or index or sorts in a temp b-tree. */
function planSummary(plan: readonly string[], sql: string): { summary: string; scans: boolean } {
  const indexes = [...new Set(plan.flatMap((l) => /USING (?:COVERING )?INDEX (\w+)/.exec(l)?.[1] ?? []))];
  const fullScan = plan.some((l) => /^\s*SCAN exchanges(?! USING (COVERING )?INDEX)/.test(l) && !/USING (COVERING )?INDEX/.test(l));
  const indexScan = plan.some((l) => /^\s*SCAN exchanges USING (COVERING )?INDEX/.test(l));
  const sort = plan.some((l) => /USE TEMP B-TREE/.test(l));
  const rowid = plan.some((l) => /INTEGER PRIMARY KEY/.test(l));
  // SCAN in rowid order under ORDER BY id DESC LIMIT reads from the newest row and stops at the limit.
  const walk = fullScan && !sort && /ORDER BY id DESC LIMIT/.test(sql) && !/ WHERE /.test(sql);
  const parts = [
    ...indexes,
    ...(rowid && indexes.length === 0 ? ['rowid'] : []),
    ...(walk ? ['rowid walk to LIMIT'] : fullScan ? ['table scan'] : []),
    ...(indexScan ? ['index scan'] : []),
    ...(sort ? ['temp sort'] : []),
  ];
  return { summary: parts.join(' + ') || '-', scans: (fullScan && !walk) || indexScan };
}

export async function runStoreBench(o: StoreBenchOptions): Promise<StoreBenchResult> {
  const log = o.log ?? (() => {});
  mkdirSync(o.dir, { recursive: true });
  const store = openStore(o.dir);
  try {
    let generateMs: number | null = null;
    const existing = countRows(store);
    // Captures written while the text index's backlog was indexed stay: a file holding more is reused.
    const reused = existing >= o.rows;
    if (!reused) {
      if (existing !== 0) throw new Error(`${o.dir} holds ${existing} exchanges, not ${o.rows}: point --store-dir at an empty or matching directory.`);
      log(`  generating ${o.rows.toLocaleString('en-US')} exchanges through ExchangeStore.insert + complete...`);
      generateMs = fillExchanges(store, o.rows, log, new (o.storeClass ?? ExchangeStore)(connectionOf(store))).ms;
    } else log(`  reusing ${o.rows.toLocaleString('en-US')} exchanges in ${o.dir}`);
    // The text index is filled by the background indexer while captures keep coming: timed apart.
    const textIndex = await indexBacklogUnderWrites(store, log);
    if (textIndex) log(`  text index: ${fmtInt(textIndex.backlog)} rows indexed in ${(textIndex.ms / 1000).toFixed(1)} s`);
    connectionOf(store).pragma('wal_checkpoint(TRUNCATE)');
    connectionOf(store).pragma('optimize');
    const file = join(o.dir, DATABASE_FILE);
    const fileBytes = statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

    const queries: TimedQuery[] = [];
    for (const spec of specs(store, o.iterations)) {
      // A fresh ExchangeStore under the spy, so its statements are prepared (and recorded) anew.
      const spy = spyOnSql(connectionOf(store));
      const Store = o.storeClass ?? ExchangeStore;
      const spied = new Store(connectionOf(store));
      const rows = spec.run(spied, 0);
      spy.restore();
      // The statements that read rows (not the max(id) or the capped match count a method asks first);
      // the last of them produced the answer, and is the one the baseline runs barred from the indexes.
      const reads = spy.calls.filter(
        (c) => !c.sql.startsWith('SELECT max(id)') && !c.sql.includes('LIMIT @cap') && !c.sql.startsWith('SELECT id FROM exchanges WHERE source_id'),
      );
      const last: SpiedCall | undefined = reads.at(-1);
      const x = new Store(connectionOf(store));
      spec.run(x, 1); // warm
      const times = timeSync((i) => spec.run(x, i), o.iterations, o.maxMsPerQuery);
      let baseline: TimedQuery['baseline'] = null;
      const plan =
        reads.length > 1
          ? reads.flatMap((c, n) => [
              `[statement ${n + 1} of ${reads.length}: ${c.sql.replace(/\s+/g, ' ').replace(SUMMARY_COLUMNS, '...')}]`,
              ...queryPlan(connectionOf(store), c),
            ])
          : last
            ? queryPlan(connectionOf(store), last)
            : [];
      if (last) {
        const bare: SpiedCall = { sql: withoutIndexes(last.sql), args: last.args };
        const stmt = connectionOf(store).prepare(bare.sql);
        const runBare = (): unknown => (stmt.reader ? stmt.all(...bare.args) : stmt.run(...bare.args));
        const bt = timeSync(runBare, o.baselineIterations, o.maxMsPerBaseline);
        baseline = { calls: bt.length, p50: percentile(bt, 50), p95: percentile(bt, 95), plan: queryPlan(connectionOf(store), bare) };
      }
      const p50 = percentile(times, 50);
      queries.push({
        name: spec.name,
        call: spec.call,
        calls: times.length,
        p50,
        p95: percentile(times, 95),
        rows,
        sql: last?.sql.replace(/\s+/g, ' ').replace(SUMMARY_COLUMNS, '<summary columns>') ?? '',
        plan,
        baseline,
        speedup: baseline && p50 > 0 ? baseline.p50 / p50 : null,
        planSummary: planSummary(plan, last?.sql ?? '').summary,
        scans: planSummary(plan, last?.sql ?? '').scans,
      });
    }
    const unindexed = timeUnindexedTail(store, o);
    return {
      rows: o.rows,
      reused,
      unindexed,
      generateMs,
      insertsPerSecond: generateMs === null ? null : o.rows / (generateMs / 1000),
      fileBytes,
      bytesPerRow: fileBytes / Math.max(1, o.rows),
      textIndex,
      queries,
    };
  } finally {
    store.close();
  }
}

/**
 * Text searches with a tail the indexer has not reached: rows written after it stopped, as when captures
 * arrive faster than it indexes. They stay in the file: the next run's indexer indexes them.
 */
function timeUnindexedTail(store: Store, o: StoreBenchOptions): StoreBenchResult['unindexed'] {
  const tail = Math.min(20_000, Math.max(100, Math.floor(o.rows / 50)));
  const deposits: string[] = [];
  const gen = generateRows(tail, 4242, deposits);
  store.immediate(() => {
    for (const { row, completion } of gen) store.exchanges.complete(store.exchanges.insert({ ...row, sourceId: null }).id, completion);
  });
  const notIndexed = connectionOf(store).prepare('SELECT max(id) - (SELECT indexed_upto FROM exchange_text_state) FROM exchanges').pluck().get() as number;
  const limit = 200;
  const at = <T>(list: readonly T[], i: number): T => list[i % list.length]!;
  const cases: Array<{ name: string; run: (i: number) => number }> = [
    { name: 'text: part of a deposit id (in the tail)', run: (i) => store.exchanges.list({ search: at(deposits, i).slice(9, 14), limit }).items.length },
    { name: 'text: in every row', run: () => store.exchanges.list({ search: 'application/json', limit }).items.length },
    { name: 'text: common + 2 rare filters', run: () => store.exchanges.list({ search: '/pay', verdict: 'missing', kind: 'pay', limit }).items.length },
    { name: 'text: no match', run: (i) => store.exchanges.list({ search: `no-such-text-${i}`, limit }).items.length },
  ];
  const searches = cases.map((c) => {
    c.run(0);
    const times = timeSync((i) => c.run(i), Math.min(o.iterations, 20), o.maxMsPerQuery);
    return { name: c.name, p50: percentile(times, 50), p95: percentile(times, 95), rows: c.run(1) };
  });
  return { rows: notIndexed, searches };
}

/** The human report: timings against the index-less baseline, then each plan. */
export function formatStoreResult(r: StoreBenchResult): string {
  const head = [
    `rows: ${fmtInt(r.rows)}${r.reused ? ' (reused file)' : ''}`,
    r.generateMs === null
      ? null
      : `generated in ${(r.generateMs / 1000).toFixed(1)} s (${fmtInt(r.insertsPerSecond)} insert+complete per second, ${TX_ROWS} a transaction)`,
    `database: ${fmtBytes(r.fileBytes)}, ${fmtInt(r.bytesPerRow)} bytes per row`,
    r.textIndex
      ? `text index: a backlog of ${fmtInt(r.textIndex.backlog)} rows indexed in the background in ${(r.textIndex.ms / 1000).toFixed(1)} s, ` +
        `while ${fmtInt(r.textIndex.captures)} captures were written (commit p50 ${fmtMs(r.textIndex.commitP50)}, p99 ${fmtMs(r.textIndex.commitP99)}, max ${fmtMs(r.textIndex.commitMax)}); ` +
        `those captures indexed ${(r.textIndex.catchUpMs / 1000).toFixed(1)} s after the writes stopped`
      : null,
  ].filter((l): l is string => l !== null);
  const rows = r.queries.map((q) => [
    q.name,
    q.call,
    fmtInt(q.calls),
    fmtMs(q.p50),
    fmtMs(q.p95),
    fmtInt(q.rows),
    q.baseline ? fmtMs(q.baseline.p50) : '-',
    fmtRatio(q.speedup),
    q.planSummary,
  ]);
  const plans = r.queries.flatMap((q) => [
    `-- ${q.name}: ${q.sql.replace(SUMMARY_COLUMNS, '<summary columns>')}`,
    ...q.plan.map((l) => `   ${l}`),
    ...(q.baseline ? ['   (NOT INDEXED baseline:)', ...q.baseline.plan.map((l) => `   ${l}`)] : []),
  ]);
  return [
    ...head,
    '',
    table(['query', 'ExchangeStore call', 'calls', 'p50', 'p95', 'rows', 'no-index p50', 'speedup', 'plan'], rows),
    '',
    `text searches with ${fmtInt(r.unindexed.rows)} rows not indexed (written after the indexer stopped):`,
    table(
      ['query', 'p50', 'p95', 'rows'],
      r.unindexed.searches.map((q) => [q.name, fmtMs(q.p50), fmtMs(q.p95), fmtInt(q.rows)]),
    ),
    '',
    'query plans (EXPLAIN QUERY PLAN):',
    ...plans,
  ].join('\n');
}
