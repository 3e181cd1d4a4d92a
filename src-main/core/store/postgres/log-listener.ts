// Live news of a team's exchange log, whichever process wrote it: every group a proxy commits sends a
// NOTIFY (capture-writer.ts); a listening desk then follows the log from its cursor and hands on each
// row that completed. A notification can be lost with its connection, so the follow also runs every
// POLL_MS and after each (re)connect of the LISTEN connection (channel-listener.ts).
import type pg from 'pg';
import type { ExchangeSummary } from '../../../shared/model';
import { EXCHANGES_CHANNEL } from './capture-writer';
import type { PgExchangeReads } from './exchange-reads';
import { listenToChannel } from './channel-listener';

const POLL_MS = 1_000;

export interface LogListener {
  stop(): Promise<void>;
}

export function listenToLog(
  connect: () => Promise<pg.Client>,
  reads: Pick<PgExchangeReads, 'follow'>,
  onRows: (rows: ExchangeSummary[]) => Promise<void> | void,
): LogListener {
  let stopped = false;
  let cursor: number | null = null;
  let pending: number[] = [];
  let running: Promise<void> | null = null;
  let again = false;

  const follow = async (): Promise<void> => {
    do {
      again = false;
      try {
        // Every row, whoever's it is: a listener filters what it shows.
        const page = await reads.follow({ direction: 'all', allProfiles: true }, cursor, pending);
        cursor = page.afterId;
        pending = page.pending;
        if (page.completed.length > 0 && !stopped) await onRows(page.completed);
        if (page.more) again = true;
      } catch {
        // The database is away: the next notification or poll tries again.
      }
    } while (again && !stopped);
  };
  /** Runs a follow, or asks the one running to go round once more: never two at once. */
  const wake = (): void => {
    if (stopped) return;
    if (running !== null) {
      again = true;
      return;
    }
    running = follow().finally(() => (running = null));
  };

  const poll = setInterval(wake, POLL_MS);
  // The cursor starts at the newest row now: only what commits from here on is news.
  running = follow().finally(() => (running = null));
  const channel = listenToChannel(connect, EXCHANGES_CHANNEL, wake);

  return {
    // Not waiting for a follow in flight: its read may be a connection still opening to a database that
    // does not answer. Once stopped it hands on nothing, and it fails when the log's connection closes.
    async stop() {
      stopped = true;
      clearInterval(poll);
      await channel.stop();
    },
  };
}
