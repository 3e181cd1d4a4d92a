// What the judge makes of a request (a new exchange, its row's values) and of its answer (the completion):
// the capture side hands these to the store, which binds them to its columns (store/rows/exchange-values.ts).
import type { Direction, ExchangeKind, ExchangeOrigin, Finding, HeaderList, KeyFields, SignatureReport } from '../../shared/model';

export interface NewExchange {
  direction: Direction;
  kind: ExchangeKind;
  origin: ExchangeOrigin;
  at: string;
  method: string;
  path: string;
  query: string;
  target: string | null;
  headers: HeaderList;
  body: Uint8Array;
  /** Bytes received; larger than body.length when truncated. */
  size: number;
  truncated: boolean;
  remoteAddress: string | null;
  signature: SignatureReport | null;
  findings: Finding[];
  keys: KeyFields;
  sourceId: number | null;
  tags?: string[];
  /** How a captured request arrived; absent or null: not known (imports, outbound sends). */
  scheme?: 'http' | 'https' | null;
  /** The profile it belongs to (whose callback prefix received it, or used to send it); absent or null: unassigned. */
  profile?: string | null;
}

export interface ExchangeCompletion {
  response: { status: number; headers: HeaderList; body: Uint8Array } | null;
  error: string | null;
  durationMs: number;
  completedAt: string;
}
