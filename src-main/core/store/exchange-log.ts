// The exchange log as the desk sees it, whatever the engine: reads (a page of the list, one exchange, a
// deposit's timeline, a captured request's bytes) and writes (an outbound send's row and its answer, an
// import's rows, findings made later). SQLite answers at once (its calls are synchronous); PostgreSQL over
// the network. Everything but the proxy's own write path goes through this, so that a desk attached to a
// team's log reads and writes there and never in the laptop's file.
import type { CheckReport, CheckReportSummary, ExchangeDetail, ExchangePage, Timeline } from '../../shared/model';
import type { StoredRequest } from './exchange-rows';
import type { CaptureRows } from '../proxy/capture-writer';
import type { ExchangeStore } from './exchanges';
import type { RowFilter } from './row-filter';
import { sqliteSql, type SharedSql } from './shared-sql';
import { connectionOf, type Store } from './index';

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

export interface ExchangeLog extends ExchangeReader {
  readonly reports: CheckReports;
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
  return {
    ...sqliteReader(store.exchanges),
    sql: sqliteSql(connectionOf(store)),
    reports: {
      add: async (report) => store.reports.add(report),
      list: async () => store.reports.list(),
      get: async (id) => store.reports.get(id),
    },
    requestOf: async (id) => store.exchanges.requestOf(id),
    write: async (write) => store.transaction(() => write(store.exchanges)),
  };
}
