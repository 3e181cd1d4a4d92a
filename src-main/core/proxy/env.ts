// What one running proxy needs from the rest of the desk, resolved once at start.
import type { CaptureWriter } from '../store/contract/capture-writer';
import { DEFAULT_MAX_CONNECTIONS } from './connection-budget';
import type { FaultSource } from './faults';
import type { RoutingTable } from './routes';

export interface CaptureEnv {
  /** A writer for one listener: the proxy groups its writes into transactions through it (one engine or the other). */
  openWriter(): CaptureWriter;
  /** Which profile each request belongs to (its secrets, prefix, upstream). Called per request: must be cheap. */
  routes(): RoutingTable;
  /** Every stored secret and API key, none of which is stored in clear. Called per request: must be cheap. */
  secrets(): readonly string[];
  readonly maxBodyBytes: number;
  readonly upstreamTimeoutMs: number;
  /** The faults to apply to callbacks (absent: none). Called per callback: must be cheap. */
  readonly faults?: FaultSource;
  /** How long a timeout fault holds a connection at most (the proxy's request timeout). */
  readonly faultHoldMs?: number;
  /** A capture could not be committed: the request was answered 503 (nothing unrecorded is acknowledged or forwarded). */
  onCaptureFailure(err: unknown): void;
  /** A capture was committed: a storage failure reported before is over. Called per capture: must be cheap. */
  onCaptureStored(): void;
  /** A request could not be judged (a bug): its row was recorded with the error instead of a verdict. */
  onUnjudged(err: unknown): void;
}

export interface GuardRails {
  /** Time allowed to receive the request headers. */
  headersTimeoutMs: number;
  /** Time allowed to receive the whole request, body included: a slow client is cut off with 408. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** Largest header block accepted (431 beyond). */
  maxHeaderBytes: number;
  /** Time allowed for a TLS handshake (HTTPS only): a stalled one is closed, and recorded. */
  tlsHandshakeTimeoutMs: number;
  /** Open connections at most: beyond it the oldest one with no request in flight is closed. */
  maxConnections: number;
}

export const DEFAULT_GUARD_RAILS: GuardRails = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  tlsHandshakeTimeoutMs: 10_000,
  maxConnections: DEFAULT_MAX_CONNECTIONS,
};
