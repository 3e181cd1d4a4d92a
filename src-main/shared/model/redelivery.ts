// Redelivering captured callbacks to an operator.
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.
import type { ExchangeSummary, Verdict } from './exchanges';

/** Which captured callbacks a redelivery sends again (inbound pay and results only). Every filter narrows. */
export interface RedeliveryFilter {
  /** Only captures whose forward got no 2XX answer, or no answer at all. */
  failed?: boolean;
  /** ISO 8601, or relative to now: "2h", "30m", "45s", "1d". */
  since?: string;
  until?: string;
  depositId?: string;
  userId?: string;
  kind?: 'pay' | 'results';
  verdict?: Verdict;
  /** Inclusive id ranges ([12, 12] is exchange 12). */
  idRanges?: Array<[number, number]>;
  /** Also captures already redelivered with a 2XX answer (skipped by default, so a stopped run resumes). */
  again?: boolean;
  /**
   * Whose captures: a redelivery selects one profile's only (default: the run's profile, else the active
   * one), and sends them with that profile's secret and operator URL. Ids of another profile's captures are refused.
   */
  profile?: string;
}

export interface RedeliverySelection {
  /** Captures that would be sent. */
  count: number;
  /** Captures that match the filter but were already redelivered with a 2XX answer (0 with `again`). */
  skipped: number;
  /** The first of them in capture order (oldest first), at most the preview limit. */
  items: ExchangeSummary[];
  /** Pass as afterId for the next page of the preview; null at the end. */
  nextAfterId: number | null;
}

export interface RedeliveryRequest {
  filter: RedeliveryFilter;
  /** The run's id, for its progress events and stopRedelivery; default: a new one. */
  runId?: string;
  /** The base URL; default: the profile's operator URL. */
  to?: string;
  profile?: string;
  confirmedProduction?: boolean;
  /** Sends per second at most (default 10). */
  rate?: number;
  /** 'keep' (default): the platform's own signature bytes; 'resign': signed again with the profile's secret. */
  signature?: 'keep' | 'resign';
  /** Stop at the first send without a 2XX answer. */
  stopOnFailure?: boolean;
  /** Re-sign captures whose captured signature was not valid too (refused, and counted, without it). */
  resignInvalid?: boolean;
}

export interface RedeliveryFailure {
  sourceId: number;
  /** The deposit the capture was for, so a failure reads as which payment, not only which row. */
  depositId?: string | null;
  exchangeId: number | null;
  status: number | null;
  error: string | null;
}

export interface RedeliveryReport {
  runId: string;
  at: string;
  target: string;
  signature: 'keep' | 'resign';
  rate: number;
  selected: number;
  sent: number;
  ok: number;
  failed: number;
  skipped: number;
  /** Captures not re-signed because their captured signature was not valid (resign without resignInvalid); counted in skipped too. */
  resignRefused: number;
  /** Whose captures were sent (null: a desk without profiles). */
  profile: string | null;
  /** Why the run ended before the selection did: stopped by the user, or at the first failure. */
  stopped: 'user' | 'failure' | null;
  durationMs: number;
  /** The ids of the first and last redelivered exchanges (null when nothing was sent). */
  firstExchangeId: number | null;
  lastExchangeId: number | null;
  /** The first failures, at most REDELIVERY_FAILURES_KEPT (the report stays small on a long run). */
  failures: RedeliveryFailure[];
}

export const REDELIVERY_FAILURES_KEPT = 100;

export interface RedeliveryProgress {
  runId: string;
  /** Sends done so far, of total. */
  done: number;
  total: number;
  ok: number;
  failed: number;
  /** The send just done (absent on the first event of a run, sent before any send). */
  last?: { sourceId: number; exchangeId: number | null; status: number | null; error: string | null };
  /** The run's report, on its last event. */
  report?: RedeliveryReport;
}
