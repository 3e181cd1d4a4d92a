// Deleting and pruning captures.
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.
import type { ExchangeQuery } from './exchanges';
import type { DeskStatus } from './proxy';

/** Which exchanges to delete: these ids, or every row the filter matches (its beforeId and limit are ignored). */
/** The selection, or a filter's rows; upToId: only rows up to that id (those a dry run counted, not later ones). */
export type ExchangeDeletion = { ids: number[] } | { filter: ExchangeQuery; upToId?: number };

export interface ExchangeDeleteReport {
  /** Rows deleted, or with dryRun the rows that would be. */
  deleted: number;
  /** The highest id among them (null: none): pass it as upToId to delete exactly the rows a dry run counted. */
  lastId: number | null;
  dryRun: boolean;
  /** The log's counts after the delete. */
  counts: DeskStatus['counts'];
}

export interface PruneOptions {
  /** Delete exchanges whose request started more than this many days ago (fractions allowed). */
  olderThanDays?: number;
  /** Keep only the newest N exchanges (newest by id: the order the desk recorded them). */
  keep?: number;
  /** Rebuild the file with VACUUM, returning every free page to the file system. */
  vacuum?: boolean;
}

export interface PruneReport {
  /** Exchanges deleted. */
  deleted: number;
  /** Exchanges left. */
  remaining: number;
  /** Kept exchanges whose source was deleted: their sourceId is now null. */
  detached: number;
  /** The ISO time before which exchanges were deleted, when olderThanDays was given. */
  cutoff: string | null;
  vacuumed: boolean;
  /** The WAL was checkpointed and cut to zero bytes (false when another connection was still reading it). */
  walTruncated: boolean;
  /** Database plus WAL, in bytes, before and after. */
  bytesBefore: number;
  bytesAfter: number;
  /** Pages still free inside the file (reused by new rows; `vacuum` returns them to the file system). */
  freePages: number;
}
