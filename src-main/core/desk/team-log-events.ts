// The desk's `exchange` events when its log is a team's PostgreSQL: every row any proxy on the database
// completes, heard through LISTEN/NOTIFY, with the log's counts after it. Started while someone listens
// for rows (the UI, `serve --tail`), stopped when nobody does.
import type { DeskEventListener } from '../../shared/desk-api';
import type { ExchangeSummary } from '../../shared/model';
import type { TeamLog } from '../store/postgres';
import type { LogListener } from '../store/postgres/log-listener';

/** Emits each row as an `exchange` event with the log's counts after it. */
export function announceRows(team: TeamLog, emit: DeskEventListener): (rows: ExchangeSummary[]) => Promise<void> {
  // Should the counts not be readable this once, the rows still go out, with the last counts read.
  let counts = { inbound: 0, outbound: 0 };
  return async (rows) => {
    counts = await team.counts().catch(() => counts);
    for (const exchange of rows) emit('exchange', { exchange, counts });
  };
}

export function teamLogEvents(team: TeamLog, emit: DeskEventListener): { start(): void; stop(): Promise<void> } {
  let listener: LogListener | null = null;
  const announce = announceRows(team, emit);
  return {
    start() {
      listener ??= team.listen(announce);
    },
    async stop() {
      const l = listener;
      listener = null;
      await l?.stop();
    },
  };
}
