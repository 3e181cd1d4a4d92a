// Faults the proxy plays on purpose (delay, drop, an answer of its choosing).
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.

/** What a fault does to a callback: answer this status, wait first, never answer, or cut the connection. */
export type FaultAction =
  | { type: 'status'; status: number; /** The answer's body (JSON text); default: an error in the spec's shape. */ body?: string }
  | { type: 'delay'; ms: number }
  | { type: 'timeout' }
  | { type: 'reset' };

export interface ProxyFaultInput {
  /** Which callbacks it applies to; absent: pay and results alike. */
  path?: 'pay' | 'results';
  action: FaultAction;
  /** Applies to the next N matching requests, then it is spent. */
  count?: number;
  /** Applies to this share (0 < P <= 1) of the matching requests, counted: 0.5 faults every second one. */
  ratio?: number;
}

export interface ProxyFault {
  id: number;
  path: 'pay' | 'results' | null;
  action: FaultAction;
  count: number | null;
  ratio: number | null;
  /** Matching requests seen so far. */
  matched: number;
  /** Of those, the ones it was applied to. */
  applied: number;
  /** True once a counted fault has been applied `count` times. */
  spent: boolean;
  createdAt: string;
}
