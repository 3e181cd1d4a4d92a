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
import type { SandboxOperator } from '../../sandbox';
import type { DeleteOutcome } from '../rows/deletion';
import type { PruneOptions, PruneReport } from '../../../shared/model';
import type { Rejudged, SignedRow } from './signed-rows';
import type { DetailRows, StoredRequest } from '../rows/exchange-rows';
import type { ExportRead } from '../rows/export-rows';
import type { IdPage } from '../rows/id-page';
import type { RowFilter } from '../rows/row-filter';
import type { SharedSql } from './shared-sql';

export type ListQuery = RowFilter & { beforeId?: number; limit?: number };

export interface ExchangeReader {
  list(q: ListQuery): Promise<ExchangePage>;
  /** The ids of the same page, read without the rest of its rows (rows/id-page.ts): what an export selects. */
  listIds(q: ListQuery): Promise<IdPage>;
  get(id: number): Promise<ExchangeDetail | null>;
  /**
   * The rows of the exchanges of `ids` that exist, and the ids derived from them: one read for many (an
   * export's slice), not one each. rows/exchange-rows.ts toDetails makes details of them, wherever it runs.
   */
  detailRows(ids: readonly number[]): Promise<DetailRows>;
  /**
   * The same rows for an export, as cheap as can be for the proxy's thread (rows/export-rows.ts): where the
   * export thread reads them itself, or the rows where no thread of the process can read the log.
   */
  exportRows(ids: readonly number[]): Promise<ExportRead>;
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
  /** `now`: the clock for olderThanDays (tests). */
  prune(options: PruneOptions & { now?: Date }): Promise<PruneReport>;
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
