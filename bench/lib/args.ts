// Command-line options of `npm run bench`. Every count and time has a bound; --quick shrinks them all
// to a smoke run of a few seconds a benchmark.

export type BenchName =
  | 'proxy'
  | 'store'
  | 'memory'
  | 'ui'
  | 'writes'
  | 'judge'
  | 'redeliver'
  | 'ndjson'
  | 'tail'
  | 'prune'
  | 'team-store'
  | 'team-outage'
  | 'team-scale'
  | 'team-search'
  | 'search-beside'
  | 'export-cost';
export const BENCH_NAMES: readonly BenchName[] = [
  'proxy',
  'store',
  'memory',
  'ui',
  'writes',
  'judge',
  'redeliver',
  'ndjson',
  'tail',
  'prune',
  'team-store',
  'team-outage',
  'team-scale',
  'team-search',
  'search-beside',
  'export-cost',
];

export type BenchEngine = 'sqlite' | 'postgres';

export interface BenchArgs {
  quick: boolean;
  only: BenchName[];
  json: string | null;
  /** proxy, tail, team-store: requests measured per row and connection count, and the connection counts. */
  requests: number;
  /**
   * proxy: requests sent before each measured run; null: as many as measured. The JIT compiles the
   * capture path over the first few thousand requests: a shorter warm-up measures that compiling too.
   */
  warmup: number | null;
  connections: number[];
  /** proxy, team-store: rounds over every proxy (the table shows medians). */
  rounds: number;
  /** proxy: a row's run is stopped after this many seconds whatever the count. */
  maxSeconds: number;
  /** Skip the mitmdump rows even where it is installed. */
  noMitm: boolean;
  /** proxy: a user and a deposit of its own in every request, instead of one callback repeated. */
  distinctKeys: boolean;
  /** proxy: the open-loop pass's requests a second (latency below saturation). */
  rate: number;
  /** search-beside: the engines whose log the callbacks are captured into, in this order. */
  engines: BenchEngine[];
  /** search-beside: the UI's calls through the web mode's API (as a page sends them) or made in-process. */
  uiCalls: 'web' | 'in-process';
  /** store: exchanges generated (export-cost: up to 20,000), timed calls per query, and a directory to keep (and reuse) the file in. */
  rows: number;
  iterations: number;
  storeDir: string | null;
  /** store: time this module's ExchangeStore instead (before/after comparisons). */
  exchangeStore: string | null;
  /** memory: captures sent through serve. */
  captures: number;
  /** ui: rows in the database the UI lists. */
  uiRows: number;
  /** writes: captures written a run (rounds: --rounds). */
  writes: number;
  /** redeliver: captures sent again (at the first rate; the other rates send 10 seconds' worth), and the rates asked. */
  redeliverSends: number;
  redeliverRates: number[];
  /** redeliver (selection), ndjson and prune: exchanges in the log. */
  logRows: number;
  /** prune: stop the prune (SIGTERM) after this many seconds; null: let it finish. */
  pruneSeconds: number | null;
  /** Run the desk from the TypeScript source (tsx) instead of out/main/cli.js. */
  fromSource: boolean;
  /** Write V8 CPU profiles of the desk's serve process into this directory. */
  cpuProf: string | null;
  /** proxy: a checkout of another version, built (its out/main/cli.js): forward mode side by side with it. */
  baseline: string | null;
  /**
   * proxy: the proxy under test on CPU 0, the load generator and the stand-in upstream on CPU 1
   * (`taskset`), so that a proxy's throughput is its own cost, not its share of two cores with them.
   */
  pin: boolean;
  /** team-search: both engines filled and text-indexed in bulk (millions of rows in minutes). */
  bulk: boolean;
}

const FULL = {
  redeliverSends: 100_000,
  logRows: 1_000_000,
  rounds: 3,
  requests: 30_000,
  rows: 1_000_000,
  iterations: 200,
  captures: 1_000_000,
  uiRows: 100_000,
  writes: 66_000,
  rate: 2_000,
  maxSeconds: 60,
};
/**
 * The smoke run's counts (the tests' bench smoke run asserts against them): the least that still takes
 * every path of each benchmark. 2,000 log rows leave prune 1,000 to delete beyond --keep 1000; 2,200
 * writes are 200 group commits, two of the checkpoints that count WAL frames; 100 requests a run
 * still take the proxy's warm-up, its measured load and the open loop's second at 200 a second.
 */
export const QUICK = {
  redeliverSends: 100,
  logRows: 2_000,
  rounds: 1,
  requests: 100,
  rows: 1_000,
  iterations: 3,
  captures: 400,
  uiRows: 500,
  writes: 2_200,
  rate: 200,
  maxSeconds: 15,
} as const;

function positive(name: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} takes a positive integer; got ${String(value)}`);
  return n;
}

export const USAGE = `usage: npm run bench -- [--quick] [--only proxy,store,memory,ui,writes,judge,redeliver,ndjson,tail,prune,team-store,team-outage,team-scale,team-search,search-beside,export-cost] [--json FILE]
  [--requests N] [--warmup N] [--connections 32,128] [--rounds N] [--max-seconds S] [--no-mitm] [--distinct-keys] [--rate N] [--engine sqlite|postgres|both] [--ui-calls web|in-process]
  [--rows N] [--iterations N] [--store-dir DIR] [--exchange-store MODULE] [--captures N] [--ui-rows N] [--writes N]
  [--redeliver-sends N] [--redeliver-rates 1000,100] [--log-rows N] [--prune-seconds N] [--from-source] [--cpu-prof DIR] [--baseline DIR] [--pin] [--bulk]`;

export function parseArgs(argv: readonly string[]): BenchArgs {
  const quick = argv.includes('--quick');
  const d = quick ? QUICK : FULL;
  const a: BenchArgs = {
    quick,
    only: [...BENCH_NAMES],
    json: null,
    requests: d.requests,
    warmup: null,
    connections: [32, 128],
    rounds: d.rounds,
    maxSeconds: d.maxSeconds,
    noMitm: false,
    distinctKeys: false,
    rate: d.rate,
    engines: ['sqlite', 'postgres'],
    uiCalls: 'web',
    rows: d.rows,
    iterations: d.iterations,
    storeDir: null,
    exchangeStore: null,
    captures: d.captures,
    uiRows: d.uiRows,
    writes: d.writes,
    redeliverSends: d.redeliverSends,
    redeliverRates: quick ? [1000] : [1000, 100],
    logRows: d.logRows,
    pruneSeconds: null,
    fromSource: false,
    cpuProf: null,
    pin: false,
    bulk: false,
    baseline: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--quick':
        break;
      case '--only': {
        const names = value()
          .split(',')
          .map((s) => s.trim());
        for (const n of names) if (!BENCH_NAMES.includes(n as BenchName)) throw new Error(`unknown benchmark "${n}" (${BENCH_NAMES.join(', ')})`);
        a.only = names as BenchName[];
        break;
      }
      case '--json':
        a.json = value();
        break;
      case '--requests':
        a.requests = positive(flag, value());
        break;
      case '--warmup':
        a.warmup = positive(flag, value());
        break;
      case '--connections':
        a.connections = value()
          .split(',')
          .map((s) => positive(flag, s));
        break;
      case '--rounds':
        a.rounds = positive(flag, value());
        break;
      case '--max-seconds':
        a.maxSeconds = positive(flag, value());
        break;
      case '--pin':
        a.pin = true;
        break;
      case '--bulk':
        a.bulk = true;
        break;
      case '--no-mitm':
        a.noMitm = true;
        break;
      case '--distinct-keys':
        a.distinctKeys = true;
        break;
      case '--rate':
        a.rate = positive(flag, value());
        break;
      case '--rows':
        a.rows = positive(flag, value());
        break;
      case '--engine': {
        const v = value();
        if (v !== 'sqlite' && v !== 'postgres' && v !== 'both') throw new Error(`--engine takes sqlite, postgres or both; got ${v}`);
        a.engines = v === 'both' ? ['sqlite', 'postgres'] : [v];
        break;
      }
      case '--ui-calls': {
        const v = value();
        if (v !== 'web' && v !== 'in-process') throw new Error(`--ui-calls takes web or in-process; got ${v}`);
        a.uiCalls = v;
        break;
      }
      case '--iterations':
        a.iterations = positive(flag, value());
        break;
      case '--store-dir':
        a.storeDir = value();
        break;
      case '--exchange-store':
        a.exchangeStore = value();
        break;
      case '--captures':
        a.captures = positive(flag, value());
        break;
      case '--ui-rows':
        a.uiRows = positive(flag, value());
        break;
      case '--writes':
        a.writes = positive(flag, value());
        break;
      case '--redeliver-sends':
        a.redeliverSends = positive(flag, value());
        break;
      case '--redeliver-rates':
        a.redeliverRates = value()
          .split(',')
          .map((s) => positive(flag, s));
        break;
      case '--log-rows':
        a.logRows = positive(flag, value());
        break;
      case '--prune-seconds':
        a.pruneSeconds = positive(flag, value());
        break;
      case '--from-source':
        a.fromSource = true;
        break;
      case '--cpu-prof':
        a.cpuProf = value();
        break;
      case '--baseline':
        a.baseline = value();
        break;
      default:
        throw new Error(`unknown option ${flag}\n${USAGE}`);
    }
  }
  return a;
}
