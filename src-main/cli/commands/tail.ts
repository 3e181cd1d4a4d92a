// `wager-desk tail`: prints each exchange as it is recorded, from any process (the proxy may run in
// `serve` or in the desktop app). It cannot hear the other process's events, so it follows the database:
// every POLL_MS it reads the rows after the last one it read, and the rows it saw in flight, by primary
// key (a reader in WAL mode never blocks the writer). A row is printed once, when complete, so its line
// carries the status and duration that are the point of a live view; a row still unanswered after
// PENDING_GRACE_MS (the process that recorded it stopped) is printed as it is. A log that cannot be read
// for a while (a team's database restarting) is waited for, from the same cursor (nextPage).
import type { Command } from 'commander';
import type { Desk } from '../../core/desk';
import type { ExchangeSummary, FollowCursor } from '../../shared/model';
import { must, withDesk } from '../context';
import { exchangeJsonLine, exchangeLine } from '../exchange-line';
import { UsageError } from '../errors';
import { addExchangeFilters, exchangeFilterQuery, oneScope } from '../filters';
import { kindOption, resultOption } from './tail-options';

const POLL_MS = 100;
/** How often a tail whose log cannot be read tries again (a team's database restarting, say). */
const RETRY_MS = 1_000;
/** Longer than any answer the proxy waits for (its upstream timeout is 30 s by default). */
const PENDING_GRACE_MS = 120_000;

function stopSignal(): { stopped: Promise<void>; isStopped(): boolean; stop(): void } {
  let stopped = false;
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    resolve();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { stopped: promise, isStopped: () => stopped, stop };
}

interface Follower {
  print(x: ExchangeSummary, pending: boolean): void;
  /** The lines of one poll are printed: written out in one go. */
  flush(): void;
  /** The starting point is read: rows recorded from now on are printed. */
  ready(): void;
}

/**
 * Reads the next page, and while the log cannot be read (io-error: a database away or restarting) says so
 * once on stderr and tries again every RETRY_MS, from the same cursor: once it can, the rows committed
 * meanwhile follow the last one printed, none twice, none left out. Null: stopped while waiting.
 */
async function nextPage(
  read: () => ReturnType<Desk['followExchanges']>,
  signal: ReturnType<typeof stopSignal>,
  afterId: number | null,
): Promise<Awaited<ReturnType<Desk['followExchanges']>> | null> {
  let away = false;
  for (;;) {
    const page = await read();
    if (page.ok || page.error.code !== 'io-error') {
      if (away && page.ok) process.stderr.write(`the exchange log can be read again: following on after id ${afterId ?? 'none'}\n`);
      return page;
    }
    if (!away) process.stderr.write(`the exchange log cannot be read now (${page.error.message}); trying again every ${RETRY_MS / 1000} s\n`);
    away = true;
    await Promise.race([new Promise((r) => setTimeout(r, RETRY_MS)), signal.stopped]);
    if (signal.isStopped()) return null;
  }
}

async function follow(desk: Desk, query: FollowCursor['query'], out: Follower, signal: ReturnType<typeof stopSignal>): Promise<void> {
  const filter = query !== undefined ? { query } : {};
  const start = must(await desk.followExchanges({ afterId: null, ...filter }));
  let afterId = start.afterId;
  out.ready();
  const print = out.print;
  const pendingSince = new Map<number, number>();
  while (!signal.isStopped()) {
    const read = await nextPage(() => desk.followExchanges({ afterId, pendingIds: [...pendingSince.keys()], ...filter }), signal, afterId);
    if (read === null) break;
    const page = must(read);
    afterId = page.afterId;
    for (const x of page.completed) {
      pendingSince.delete(x.id);
      print(x, false);
    }
    const now = Date.now();
    const stillPending = new Set(page.pending);
    for (const id of [...pendingSince.keys()]) if (!stillPending.has(id)) pendingSince.delete(id); // deleted meanwhile (prune)
    for (const id of page.pending) if (!pendingSince.has(id)) pendingSince.set(id, now);
    const overdue = [...pendingSince].filter(([, since]) => now - since > PENDING_GRACE_MS).map(([id]) => id);
    for (const id of overdue) {
      pendingSince.delete(id);
      const found = await desk.listExchanges({ direction: 'all', allProfiles: true, beforeId: id + 1, limit: 1 });
      const x = found.ok ? found.value.items[0] : undefined;
      if (x?.id === id) print(x, true);
    }
    out.flush();
    if (page.more) continue;
    await Promise.race([new Promise((r) => setTimeout(r, POLL_MS)), signal.stopped]);
  }
}

export function registerTail(program: Command): void {
  addExchangeFilters(program.command('tail').description('print each exchange as it is recorded (by serve or the app), until Ctrl+C'))
    .option('--kind <kind>', 'only pay, results, token or other', kindOption)
    .option('--result <result>', 'only results callbacks with this result (WIN, DRAW, LOSE, REFUND)', resultOption)
    .option('--json', 'one JSON object per line')
    .action(async (_opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      const contradiction = oneScope(opts);
      if (contradiction) throw new UsageError(contradiction);
      const query = {
        ...exchangeFilterQuery(opts),
        ...(opts.kind !== undefined ? { kind: opts.kind } : {}),
        ...(opts.result !== undefined ? { result: opts.result } : {}),
      };
      // A closed pipe (tail | head) ends the follow like SIGTERM (io.ts: endQuietlyWhenTheReaderLeaves).
      const signal = stopSignal();
      // One write per poll, not per line: at a proxy's full rate that is a thousand writes a second fewer.
      let lines = '';
      const print = (x: ExchangeSummary, pending: boolean): void => {
        lines += `${opts.json ? exchangeJsonLine(x) : exchangeLine(x, pending, opts.allProfiles === true)}\n`;
      };
      const flush = (): void => {
        if (lines === '') return;
        process.stdout.write(lines);
        lines = '';
      };
      await withDesk(opts, async (desk) => {
        const ready = (): void => void process.stderr.write('following the exchange log: Ctrl+C to stop\n');
        await follow(desk, query, { print, flush, ready }, signal);
      });
    });
}
