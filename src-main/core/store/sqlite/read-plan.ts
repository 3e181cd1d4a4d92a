// A read of the log written once and run in either of two places: on the desk's own connection (at once,
// synchronously) or on a reading thread with a connection of its own (reading-threads.ts), where a long
// search cannot delay the proxy's captures. A plan is a generator that yields each statement it needs and
// receives its result, so the choice of plan, the loops and the merges stay in one piece of code.
import type { Db } from './open';
import { readStoppedMessage, stoppedSeconds } from '../rows/read-budget';

export type StatementMode = 'all' | 'get' | 'pluck-get' | 'pluck-all';

export type ReadStep =
  | { kind: 'statement'; sql: string; params: Record<string, unknown> | unknown[]; mode: StatementMode }
  /** Opens or closes a read transaction: the statements between see one snapshot. */
  | { kind: 'snapshot'; open: boolean };

export type ReadPlan<T> = Generator<ReadStep, T, unknown>;

/** Thrown into a plan when its time is spent: a plan that can answer with what it found catches it. */
export class ReadStopped extends Error {
  /** Seconds, to a tenth; never 0 (a timer may fire a fraction of a millisecond early, and a budget is never 0). */
  readonly afterSeconds: number;

  constructor(afterMs: number) {
    const seconds = stoppedSeconds(afterMs);
    super(readStoppedMessage(seconds));
    this.name = 'ReadStopped';
    this.afterSeconds = seconds;
  }
}

function statement(mode: StatementMode) {
  return function* <T>(sql: string, params: Record<string, unknown> | unknown[] = {}): ReadPlan<T> {
    return (yield { kind: 'statement', sql, params, mode }) as T;
  };
}

/** Every row. */
export const readAll = statement('all') as <T>(sql: string, params?: Record<string, unknown> | unknown[]) => ReadPlan<T[]>;
/** The first row, or undefined. */
export const readOne = statement('get') as <T>(sql: string, params?: Record<string, unknown> | unknown[]) => ReadPlan<T | undefined>;
/** The first column of the first row. */
export const readValue = statement('pluck-get') as <T>(sql: string, params?: Record<string, unknown> | unknown[]) => ReadPlan<T>;
/** The first column of every row. */
export const readValues = statement('pluck-all') as <T>(sql: string, params?: Record<string, unknown> | unknown[]) => ReadPlan<T[]>;

/** Runs `plan` in one snapshot (a read transaction), closing it however the plan ends. */
export function* inSnapshot<T>(plan: ReadPlan<T>): ReadPlan<T> {
  yield { kind: 'snapshot', open: true };
  try {
    return yield* plan;
  } finally {
    yield { kind: 'snapshot', open: false };
  }
}

type StatementStep = Extract<ReadStep, { kind: 'statement' }>;
type Prepared = ReturnType<Db['prepare']>;

/**
 * Runs one statement step, prepared once per connection by mode and text (pluck() changes a statement in
 * place). Self-contained: the reading thread runs it from its source (reading-threads.ts).
 */
export function runStatement(db: Pick<Db, 'prepare'>, cache: Map<string, Prepared>, step: StatementStep): unknown {
  const key = `${step.mode} ${step.sql}`;
  let stmt = cache.get(key);
  if (!stmt) {
    stmt = db.prepare(step.sql);
    if (step.mode === 'pluck-get' || step.mode === 'pluck-all') stmt.pluck();
    cache.set(key, stmt);
  }
  return step.mode === 'all' || step.mode === 'pluck-all' ? stmt.all(step.params) : stmt.get(step.params);
}

/** A connection's prepared statements for plans run on it at once. */
export class PreparedStatements {
  private readonly cache = new Map<string, Prepared>();

  constructor(private readonly db: Db) {}

  run(step: StatementStep): unknown {
    return runStatement(this.db, this.cache, step);
  }
}

/**
 * Runs a plan on the desk's connection, at once. A snapshot inside a transaction already open (a write
 * that reads) is that transaction's.
 */
export function runHere<T>(db: Db, statements: PreparedStatements, plan: ReadPlan<T>): T {
  let opened = false;
  let next = plan.next();
  for (;;) {
    if (next.done) return next.value;
    const step = next.value;
    let result: unknown;
    try {
      if (step.kind === 'snapshot') {
        if (step.open && !db.inTransaction) (db.exec('BEGIN'), (opened = true));
        else if (!step.open && opened) (db.exec('COMMIT'), (opened = false));
      } else result = statements.run(step);
    } catch (err) {
      next = plan.throw(err);
      continue;
    }
    next = plan.next(result);
  }
}
