// The time budget of a desk's read, whatever the engine: SQLite ends its reading thread when it is spent
// (sqlite/reading-threads.ts), PostgreSQL cancels the statement (statement_timeout, postgres/team-log.ts).
// A search past it answers with what it found and says so; another read fails with the same sentence.

/** How long a read of the desk may take, by default: a search past it answers with what it found. */
export const READ_BUDGET_MS = 5_000;

/** Seconds, to a tenth; never 0 (a timer may fire a fraction of a millisecond early, and a budget is never 0). */
export function stoppedSeconds(afterMs: number): number {
  return Math.max(1, Math.round(afterMs / 100)) / 10;
}

/** What a read stopped by its budget says. */
export function readStoppedMessage(seconds: number): string {
  return `The read stopped after ${seconds} s, its time budget: narrow the filters or the search.`;
}
