import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ExchangeDeletion, ExchangeSummary, SecretsKeySource } from '../../../shared/model';
import { SandboxLedger } from './sandbox-books';
import { Checkpointer } from './checkpointer';
import type { DeleteOutcome } from '../rows/deletion';
import { deleteExchanges, deletionPlan } from './exchange-delete';
import { ExchangeStore } from './exchanges';
import { FaultStore } from './faults';
import { openDatabase, type Db } from './open';
import { explainOpenFailure } from './open-errors';
import { ProfileStore } from './profiles';
import { ReportStore } from './reports';
import { SavedRequestStore } from './saved-requests';
import { pruneExchanges, type PruneOptions, type PruneReport } from './retention';
import { SecretBox, type SealedValue } from '../sealing/secret-box';
import { KEY_FILE, type KeySource } from '../sealing/key-source';
import { SettingsStore } from './settings';
import { PreparedStatements, runHere, type ReadPlan } from './read-plan';
import { READ_BUDGET_MS, ReadingThreads, type ReadOptions, type ReadStats } from './reading-threads';
import type { SqliteRowSource } from '../rows/export-rows';
import type { LogCounts } from './running-counts';
import { callerSignal } from '../../caller-signal';
import { profileCopy, type ProfileCopy } from './profile-copy';

export { DatabaseTooNewError, openDatabase, type Db } from './open';
export { DataDirError, type DataDirProblem } from './open-errors';
export { ExchangeStore, type NewExchange, type ExchangeCompletion } from './exchanges';
export { FaultStore } from './faults';
export type { SignedRow, SignedRowFilter, Rejudged } from './signed-rows';
export { ProfileStore } from './profiles';
export { ReportStore } from './reports';
export { SavedRequestStore } from './saved-requests';
export { SettingsStore } from './settings';
export { SecretBox, SecretKeyError, type KeyProblem } from '../sealing/secret-box';
export { chooseKeySource, KEY_FILE, KEY_FILE_VARIABLE, KEY_VARIABLE, type KeySource } from '../sealing/key-source';
export type { Checkpointer } from './checkpointer';
export type { PruneOptions, PruneReport } from './retention';
export { type ProfileCopy } from './profile-copy';
export { byName, PROFILE_COLUMNS, prefixOf } from '../copy/profile-row';

export const DATABASE_FILE = 'wager-desk.sqlite';

/** How long a prune's selection may read (by age, a pass over the whole log): far past a search's budget. */
const PRUNE_READ_BUDGET_MS = 120_000;

/**
 * The data directory's database and the stores over it. The store owns its connection: everything that
 * writes or reads goes through these members, so that what they cache (the exchanges' counts) stays true.
 */
export interface Store {
  readonly dir: string;
  /** Where the key that seals the profiles' secrets comes from (never the key). */
  readonly secretsKey: SecretsKeySource;
  readonly exchanges: ExchangeStore;
  readonly profiles: ProfileStore;
  /** The in-memory copy the profiles live in when a team's database holds them (StoreOptions.teamProfiles); else null. */
  readonly profileCopy: ProfileCopy | null;
  readonly settings: SettingsStore;
  readonly reports: ReportStore;
  /** Requests saved from the composer, per profile. */
  readonly savedRequests: SavedRequestStore;
  /** The sandbox operator's books (its tables live in this database). */
  readonly sandbox: SandboxLedger;
  /** The faults the capture proxy applies to callbacks. */
  readonly faults: FaultStore;
  /**
   * Runs `fn` in one write transaction that takes the write lock first (BEGIN IMMEDIATE): all or nothing.
   * There is no deferred kind on purpose: a deferred transaction that reads before it writes fails at
   * once (SQLITE_BUSY_SNAPSHOT, no busy wait) when another connection (the text indexer, another
   * process) commits in between.
   */
  immediate<T>(fn: () => T): T;
  /** True while a transaction of this connection is open. */
  inTransaction(): boolean;
  /** Moves whenever another connection (another process) commits: a cue to drop what was cached. Read once per turn of the event loop. */
  dataVersion(): number;
  /** Deletes old exchanges in short transactions bounded by time, pausing between them so captures get through; then compacts the file. */
  prune(options?: PruneOptions): Promise<PruneReport>;
  /**
   * Deletes the given exchanges (ids, or a filter's rows) in one transaction; with dryRun only counts
   * them. The rows a filter picks are read on a reading thread first (exchange-delete.ts).
   */
  deleteExchanges(target: ExchangeDeletion, dryRun?: boolean): Promise<DeleteOutcome>;
  /** Moves WAL checkpoints to a worker thread (while the proxy runs); null where that cannot apply. */
  checkpointInBackground(): Checkpointer | null;
  /**
   * Runs a read of the log on a reading thread (reading-threads.ts), within its time budget; at once on
   * this connection where there is no thread (a database in memory).
   */
  read<T>(plan: ReadPlan<T>, options?: ReadOptions): Promise<T>;
  /**
   * Where another thread of this process opens the file itself, read-only (the export thread: an
   * export's rows never pass through the proxy's thread); null where no reading thread can (a database
   * without a file, or without a worker).
   */
  readonly threadRows: SqliteRowSource | null;
  /**
   * Counts a read of the file by another thread of this process (threadRows') as under way, until the
   * function it returns is called: the checkpointer leaves the log's start-over for later meanwhile, as it
   * does while the reading threads read.
   */
  readElsewhere(): () => void;
  /**
   * The exchanges' counts by direction as last read, with this connection's rows written since: no SQL.
   * When they may be off (never read, or more rows written than it keeps), a count is started on a
   * reading thread, and the next call has it.
   */
  knownCounts(): LogCounts;
  /** Reads running on the reading threads, and those ended by their time budget or their caller going away (zeros without threads). */
  readStats(): ReadStats;
  /** Ends the reading threads and waits until they are gone (then close() leaves no log file beside the database). */
  closeReaders(): Promise<void>;
  close(): void;
}

const connections = new WeakMap<Store, Db>();

/**
 * The connection itself: for the capture server's group commit and checkpointer (which could go through
 * `immediate` and `checkpointInBackground`), and for tests and benchmarks that inspect the file. No
 * feature holds it: they go through the store's members.
 */
export function connectionOf(store: Store): Db {
  const db = connections.get(store);
  if (!db) throw new Error('Not a store opened by openStore.');
  return db;
}

export interface StoreOptions {
  nativeBinding?: string;
  onExchange?: (summary: ExchangeSummary) => void;
  /** Whether onExchange has anyone to tell now (default: always). */
  listening?: () => boolean;
  /** Where the key that seals stored secrets is read (default: the data directory's secrets.key). */
  keySource?: KeySource;
  /**
   * The profiles are a team database's: they live in memory (filled from there), and the data
   * directory's own profiles stay as they are for when the desk is back on its SQLite log.
   */
  teamProfiles?: boolean;
  /** How long a read of the desk may take (default READ_BUDGET_MS). */
  readBudgetMs?: number;
}

function sealedValues(db: Db): SealedValue[] {
  return db
    .prepare(
      `SELECT name AS profile, secret_enc AS sealed FROM profiles WHERE secret_enc IS NOT NULL
       UNION ALL SELECT name, previous_secret_enc FROM profiles WHERE previous_secret_enc IS NOT NULL
       UNION ALL SELECT name, api_key_enc FROM profiles WHERE api_key_enc IS NOT NULL
       UNION ALL SELECT name, balance_headers_enc FROM profiles WHERE balance_headers_enc IS NOT NULL
       UNION ALL SELECT name, balance_url_enc FROM profiles WHERE balance_url_enc IS NOT NULL`,
    )
    .all() as SealedValue[];
}

/**
 * A number read at most once per turn of the event loop. The proxy asks for the data version several
 * times a turn (its routes, signing secrets, redaction list; a PRAGMA each was about 1.5% of its CPU),
 * and one turn's work is better judged against one state of the profiles anyway: a commit by another
 * process is seen from the next turn on.
 */
function oncePerTurn(read: () => number): () => number {
  let value: number | null = null;
  const forget = (): void => {
    value = null;
  };
  return () => {
    if (value === null) {
      value = read();
      setImmediate(forget);
    }
    return value;
  };
}

/** Opens the data directory: the database, and the key (its own file unless another source is given) that seals its secrets. */
export function openStore(dir: string, options: StoreOptions = {}): Store {
  let db: Db | undefined;
  let profilesDb: Db | undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // SQLite would open a database it may not write read-only without a word (and leave -wal/-shm files
    // behind): every capture would fail later. Refuse now, before anything is created or changed.
    accessSync(dir, constants.W_OK);
    if (existsSync(join(dir, DATABASE_FILE))) accessSync(join(dir, DATABASE_FILE), constants.W_OK);
    db = openDatabase(join(dir, DATABASE_FILE), options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    const opened = db;
    const nativeBinding = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
    const profilesIn = options.teamProfiles ? (profilesDb = openDatabase(':memory:', nativeBinding)) : opened;
    // The key is read when a secret is first needed: commands that need none (captures, show) work without it.
    const box = SecretBox.forSource(
      options.keySource ?? { from: 'default-file', file: join(dir, KEY_FILE) },
      () => sealedValues(profilesIn),
      options.teamProfiles ?? false,
    );
    const settings = new SettingsStore(opened);
    const exchanges = new ExchangeStore(opened, options.onExchange, options.listening);
    const run = opened.transaction((fn: () => unknown) => fn());
    const dataVersionStmt = opened.prepare('PRAGMA data_version').pluck();
    const dataVersion = oncePerTurn(() => dataVersionStmt.get() as number);
    const readers = ReadingThreads.for(opened, {
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      ...(options.readBudgetMs !== undefined ? { budgetMs: options.readBudgetMs } : {}),
    });
    const readHere = new PreparedStatements(opened);
    const read = async <T>(plan: ReadPlan<T>, readOptions?: ReadOptions): Promise<T> =>
      readers ? readers.run(plan, readOptions) : runHere(opened, readHere, plan);
    const budgetMs = options.readBudgetMs ?? READ_BUDGET_MS;
    let readsElsewhere = 0;
    const readsUnderWay = (): boolean => (readers?.stats().running ?? 0) > 0 || readsElsewhere > 0;
    let counting: Promise<void> | null = null;
    const store: Store = {
      dir,
      secretsKey: box.describeSource(),
      exchanges,
      profiles: new ProfileStore(profilesIn, box, settings, options.teamProfiles ?? false),
      profileCopy: options.teamProfiles ? profileCopy(profilesIn) : null,
      settings,
      reports: new ReportStore(opened),
      savedRequests: new SavedRequestStore(opened),
      sandbox: new SandboxLedger(opened, settings, profilesIn),
      faults: new FaultStore(opened, dataVersion),
      immediate: <T>(fn: () => T) => run.immediate(fn) as T,
      inTransaction: () => opened.inTransaction,
      dataVersion,
      prune: async (pruneOptions) => {
        try {
          // A prune needs its whole selection (a pass over the log by age): the longer budget, not a search's.
          return await pruneExchanges(opened, (plan) => read(plan, { budgetMs: Math.max(PRUNE_READ_BUDGET_MS, budgetMs) }), pruneOptions);
        } finally {
          exchanges.recount();
        }
      },
      deleteExchanges: async (target, dryRun = false) => {
        const found = await read(deletionPlan(target, dryRun), { signal: callerSignal() });
        try {
          return deleteExchanges(opened, found);
        } finally {
          if (!dryRun) exchanges.recount();
        }
      },
      checkpointInBackground: () => Checkpointer.start(opened, { nativeBinding: options.nativeBinding, readsUnderWay }),
      read,
      threadRows: readers ? { sqlite: readers.source } : null,
      readElsewhere: () => {
        readsElsewhere += 1;
        let ended = false;
        return () => {
          if (!ended) readsElsewhere -= 1;
          ended = true;
        };
      },
      knownCounts: () => {
        // Started outside the caller's turn: the counts' plan reads this connection's data_version.
        if (exchanges.countsStale() && counting === null) {
          counting = new Promise<void>((resolve) => setImmediate(resolve))
            .then(() => read(exchanges.countsPlan(dataVersion())))
            .then(
              () => undefined,
              () => undefined,
            )
            .finally(() => (counting = null));
        }
        return exchanges.knownCounts();
      },
      readStats: () => readers?.stats() ?? { running: 0, stopped: 0, abandoned: 0 },
      closeReaders: () => readers?.close() ?? Promise.resolve(),
      close: () => {
        void readers?.close();
        profilesDb?.close();
        opened.close();
      },
    };
    connections.set(store, opened);
    return store;
  } catch (err) {
    // A damaged page can surface only when the stores prepare their statements: close what was opened.
    if (profilesDb?.open) profilesDb.close();
    if (db?.open) db.close();
    throw explainOpenFailure(err, dir, join(dir, DATABASE_FILE));
  }
}
