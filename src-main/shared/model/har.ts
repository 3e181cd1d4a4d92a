// HAR export and import.
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.
import type { ExchangeQuery } from './exchanges';

/** The exchanges of a HAR export: a capture query, or the exchanges of one conformance report. */
export type HarQuery = ExchangeQuery & { reportId?: number };

export interface HarImportOptions {
  /** The profile whose secret verifies the signatures; default: the active one. */
  profile?: string;
  /** Where the HAR came from (a file name): kept as a tag on every entry. */
  origin?: string;
  /** The callback prefix to judge the entries by; default: the profile's. */
  callbackPrefix?: string;
}

export interface HarImportResult {
  imported: number;
  ids: number[];
}
