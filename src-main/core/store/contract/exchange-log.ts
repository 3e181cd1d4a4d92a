// The exchange log as the desk sees it, whatever the engine: reads (a page of the list, one exchange, a
// deposit's timeline, a captured request's bytes, following it, its counts), writes (an outbound send's
// row and its answer, an import's rows, findings made later, verdicts judged again, deletions, prune),
// and what lives beside the exchanges: check reports and the sandbox's books. SQLite answers at once (its
// calls are synchronous); PostgreSQL over the network. The desk's parts use only this, so that a desk
// attached to a team's log reads and writes there and never in the laptop's file; the proxy's own
// capture writer is the one piece written per engine (capture-writer.ts), for speed.
import type {
  CheckReport,
  CheckReportSummary,
  ExchangeDeletion,
  ExchangeDetail,
  ExchangePage,
  FollowPage,
  SandboxState,
  SavedRequest,
  SignatureReport,
  Timeline,
} from '../../../shared/model';
import type { CaptureRows, CaptureWriter } from './capture-writer';
import { GroupCommit } from '../sqlite/group-commit';
import type { SandboxOperator } from '../../sandbox';
import type { DeleteOutcome } from '../sqlite/exchange-delete';
import type { PruneOptions, PruneReport } from '../sqlite/retention';
import type { Rejudged, SignedRow } from '../sqlite/signed-rows';
import type { StoredRequest } from '../rows/exchange-rows';
import type { ExchangeStore } from '../sqlite/exchanges';
import type { RowFilter } from '../rows/row-filter';
import { sqliteSql, type SharedSql } from './shared-sql';
import { connectionOf, type Store } from '../sqlite/index';
import { detailPlan, listPlan, timelinePlan } from '../sqlite/exchange-queries';
import { callerSignal } from '../../caller-signal';

export type ListQuery = RowFilter & { beforeId?: number; limit?: number };

export interface ExchangeReader {
  list(q: ListQuery): Promise<ExchangePage>;
  get(id: number): Promise<ExchangeDetail | null>;
  /** `profile`: one profile's deposit, null: unassigned rows, absent: every row naming it. */
  timeline(depositId: string, profile?: string | null): Promise<Timeline>;
}

/** Conformance reports: kept with the log whose exchanges their steps name. */
export interface CheckReports {
  add(report: Omit<CheckReport, 'id'>): Promise<CheckReport>;
  list(): Promise<CheckReportSummary[]>;
  get(id: number): Promise<CheckReport | null>;
}

/** The composer's saved requests, per profile: kept where the profiles are (a team's, in its database). */
export interface SavedRequests {
  list(profile: string): Promise<SavedRequest[]>;
  /** Saves each (replacing one of the same profile and name), all or nothing; of two with one name, the later. */
  put(requests: readonly SavedRequest[]): Promise<void>;
  /** Whether there was such a request. */
  remove(profile: string, name: string): Promise<boolean>;
}

/** One profile's sandbox books, as a person looks at and edits them. */
export interface SandboxBooksAdmin {
  state(book: string): Promise<SandboxState>;
  setBalance(book: string, userId: string, balance: number): Promise<void>;
  reset(book: string): Promise<void>;
}

export type LogCounts = { inbound: number; outbound: number };

export interface ExchangeLog extends ExchangeReader {
  /** How the log is named to a person; null: the data directory's own file. */
  readonly label: string | null;
  readonly reports: CheckReports;
  readonly saved: SavedRequests;
  readonly books: SandboxBooksAdmin;
  /** Refuses a log the proxy cannot write (a database without the schema), saying what to do. */
  ready(): Promise<void>;
  /** The proxy's writer: its captures committed in groups, the sandbox deciding inside them. */
  openCaptureWriter(operator: SandboxOperator): CaptureWriter;
  /** Rows recorded or completed after the cursor (tail, the UI), and those still in flight. */
  follow(filter: RowFilter, afterId: number | null, pendingIds: readonly number[]): Promise<FollowPage>;
  counts(): Promise<LogCounts>;
  /** The counts last read, without waiting (a status event). */
  knownCounts(): LogCounts;
  /** A page of signed rows after `afterId` (reverify), and the verdicts judged again, a page at once. */
  signedPage(filter: RowFilter, afterId: number, limit: number): Promise<SignedRow[]>;
  rejudge(judged: Rejudged, reports: ReadonlyArray<{ id: number; report: SignatureReport }>): Promise<void>;
  prune(options: PruneOptions): Promise<PruneReport>;
  delete(target: ExchangeDeletion, dryRun: boolean): Promise<DeleteOutcome>;
  /** Reads a feature builds itself, in the SQL both engines share. */
  readonly sql: SharedSql;
  requestOf(id: number): Promise<StoredRequest | null>;
  /**
   * Runs `write` over the rows, all or nothing, and resolves once what it wrote is durable (announced to
   * whoever follows the log). `newRows`: how many rows it records at most (PostgreSQL draws their ids first).
   */
  write<T>(write: (rows: CaptureRows) => T, newRows?: number): Promise<T>;
}

export function sqliteReader(exchanges: ExchangeStore): ExchangeReader {
  return {
    list: async (q) => exchanges.list(q),
    get: async (id) => exchanges.get(id),
    timeline: async (depositId, profile) => exchanges.timeline(depositId, profile),
  };
}

/** The data directory's log: one transaction per write, durable when it returns. */
export function sqliteLog(store: Store): ExchangeLog {
  const ledger = store.sandbox;
  return {
    // The desk's reads run off the proxy's thread, and stop when their caller goes away (reading-threads.ts).
    list: async (q) => store.read(listPlan(q), { signal: callerSignal() }),
    get: async (id) => store.read(detailPlan(id), { signal: callerSignal() }),
    timeline: async (depositId, profile) => store.read(timelinePlan(depositId, profile), { signal: callerSignal() }),
    label: null,
    sql: sqliteSql(connectionOf(store)),
    books: {
      state: async (book) => ledger.state(book),
      setBalance: async (book, userId, balance) => ledger.setBalanceByHand(book, userId, balance),
      reset: async (book) => ledger.reset(book),
    },
    ready: async () => undefined,
    openCaptureWriter: (operator) =>
      // Each write of the proxy runs inside the group's transaction on the desk's own connection.
      new GroupCommit(connectionOf(store), { rows: store.exchanges, sandbox: (call) => operator.handle(call) }),
    follow: async (filter, afterId, pending) => store.exchanges.follow(filter, afterId, pending),
    counts: async () => store.read(store.exchanges.countsPlan(), { signal: callerSignal() }),
    knownCounts: () => store.exchanges.counts(),
    signedPage: async (filter, afterId, limit) => store.exchanges.signedPage(filter, afterId, limit),
    rejudge: async (judged, reports) => store.immediate(() => reports.forEach((r) => store.exchanges.rejudge(r.id, r.report, judged))),
    prune: (options) => store.prune(options),
    delete: async (target, dryRun) => store.deleteExchanges(target, dryRun),
    saved: {
      list: async (profile) => store.savedRequests.list(profile),
      put: async (requests) => store.immediate(() => requests.forEach((r) => store.savedRequests.put(r))),
      remove: async (profile, name) => store.savedRequests.remove(profile, name),
    },
    reports: {
      add: async (report) => store.reports.add(report),
      list: async () => store.reports.list(),
      get: async (id) => store.reports.get(id),
    },
    requestOf: async (id) => store.exchanges.requestOf(id),
    write: async (write) => store.immediate(() => write(store.exchanges)),
  };
}
