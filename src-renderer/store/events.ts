// The one event router: it subscribes to the desk's events, once, at start, and hands each to the
// slices it concerns. Each slice decides what an event means for it; this file only routes. Under a
// burst of captures, exchange events are gathered and handed over once per animation frame (one list
// update and one render for the lot, not one per event). Each exchange event carries the log's counts
// after its commit, so the status bar follows without asking the desk again.
import type { DeskEvents } from '../../src-main/shared/desk-api';
import type { ExchangeEvent, ExchangeSummary } from '../../src-main/shared/model';
import { desk } from '../api';
import { useDesk } from './index';

/** Where frames do not come (a hidden window), gathered events are handed over after this long anyway. */
const EXCHANGE_FLUSH_MS = 100;

export function connectStore(): () => void {
  let gathered: ExchangeSummary[] = [];
  let latestCounts: ExchangeEvent['counts'] | null = null;
  let frame: number | null = null;
  let fallback: ReturnType<typeof setTimeout> | null = null;
  const flushExchanges = (): void => {
    if (frame !== null) cancelAnimationFrame(frame);
    if (fallback !== null) clearTimeout(fallback);
    frame = null;
    fallback = null;
    const xs = gathered;
    gathered = [];
    if (xs.length === 0) return;
    const s = useDesk.getState();
    s.applyExchanges(xs);
    s.noteExchangesForDetail(xs);
    s.noteExchangesForTimeline(xs);
    s.noteExchangesForSandbox(xs);
    if (latestCounts !== null) s.applyCounts(latestCounts);
  };
  const gather = (event: ExchangeEvent): void => {
    gathered.push(event.exchange);
    latestCounts = event.counts;
    if (frame !== null || fallback !== null) return;
    frame = requestAnimationFrame(flushExchanges);
    fallback = setTimeout(flushExchanges, EXCHANGE_FLUSH_MS);
  };

  let wasLive = false;
  const offConnection = desk.onConnection((state, detail) => {
    const s = useDesk.getState();
    s.setConnection(state, detail);
    // Events may have been missed before the stream was up, or while it was down: catch up from the database.
    if (state === 'live' && !wasLive) {
      void s.reloadCaptures();
      void s.refreshStatus();
      if (s.openId !== null) void s.openExchange(s.openId);
      void s.reloadTimeline();
    }
    wasLive = state === 'live';
  });
  // Electron's connection is live at once (the listener above already loaded everything); the web
  // mode's stream is still connecting: load now rather than wait for it.
  if (!wasLive) {
    const start = useDesk.getState();
    void start.reloadCaptures();
    void start.refreshStatus();
  }

  const offEvents = desk.onEvent((name, payload) => {
    const s = useDesk.getState();
    if (name === 'exchange') gather(payload as DeskEvents['exchange']);
    else if (name === 'status') s.setStatus(payload as DeskEvents['status']);
    else if (name === 'check-progress') s.noteCheckProgress(payload as DeskEvents['check-progress']);
    else if (name === 'redeliver-progress') s.noteRedeliverProgress(payload as DeskEvents['redeliver-progress']);
    else if (name === 'profiles') void s.loadProfiles();
  });

  return () => {
    offConnection();
    offEvents();
    if (frame !== null) cancelAnimationFrame(frame);
    if (fallback !== null) clearTimeout(fallback);
  };
}
