// The proxy's write path, as the capture code sees it whatever the engine: writes queued during one turn
// of the event loop commit together, and each learns when it is durable. A write is a synchronous
// function over the rows it may touch; SQLite runs it inside the group's transaction (sqlite/group-commit.ts),
// PostgreSQL runs it against a buffer that one round of statements then commits (store/postgres).
import type { Finding } from '../../../shared/model';
import type { SandboxCall, SandboxOutcome } from '../../sandbox';
import type { ExchangeCompletion, NewExchange } from '../../capture/new-exchange';

/** What one write may do to the exchanges: a capture's row, its answer, findings made later. */
export interface CaptureRows {
  /** The new row's id, known at once (the engine commits it with the group). */
  record(x: NewExchange): number;
  finish(id: number, c: ExchangeCompletion): void;
  /** Notes made once the row's answer is known; each engine keeps them within the room the judge left (capture/bounds.ts). */
  addFindings(id: number, findings: readonly Finding[]): void;
}

/** What a write works on: the rows, and the sandbox operator's books in the same transaction. */
export interface CaptureTx {
  readonly rows: CaptureRows;
  /** Decides a sandboxed callback against the books, all or nothing with the write's rows. */
  sandbox(call: SandboxCall): SandboxOutcome;
}

export type WriteDone<T> = (error: unknown, value: T | undefined) => void;

export interface CaptureWriter {
  /**
   * Queues a write with the next group; `done` runs once it is committed (error null), or with the error
   * that stopped it. `newRows`: how many rows the write may add (1 unless said): an engine that draws the
   * group's ids before running its writes (PostgreSQL) draws that many, and none for a group that only
   * records answers.
   */
  write<T>(write: (tx: CaptureTx) => T, done?: WriteDone<T>, newRows?: number): void;
  /**
   * A write whose answer goes out right after it: committed before this returns where the engine can
   * (SQLite, `done` called synchronously), else with the next group (`done` later).
   */
  writeNow<T>(write: (tx: CaptureTx) => T, done?: WriteDone<T>, newRows?: number): void;
  /** Commits what is queued, then refuses more writes. */
  close(): Promise<void>;
}

/**
 * Whether an error thrown inside a write belongs to the engine (a storage failure, books still to be
 * loaded) and must stop the whole write, rather than be answered as the sandbox's own 500.
 */
export function sinksTheWrite(err: unknown): boolean {
  const e = err as { name?: unknown; sinksWrite?: unknown } | null;
  return e?.name === 'SqliteError' || e?.sinksWrite === true;
}
