// Wires the desk's events into the store, once, at start. Each slice decides what an event means for
// it; this file only routes. Under a burst of captures, exchange events are gathered and handed over
// once per animation frame (one list update and one render for the lot, not one per event), and the
// status counts are refreshed at most twice a second (the first at once, the rest gathered).
import type { DeskStatus, ExchangeEvent, ExchangeSummary } from '../../src-main/shared/model';
import { desk } from '../api';
import { useDesk } from './index';

const STATUS_REFRESH_MS = 500;
/** Where frames do not come (a hidden window), gathered events are handed over after this long anyway. */
const EXCHANGE_FLUSH_MS = 100;

export function connectStore(): () => void {
  let statusTimer: ReturnType<typeof setTimeout> | null = null;
  let pending = false;
  const refreshStatusSoon = (): void => {
    if (statusTimer !== null) {
      pending = true;
      return;
    }
    void useDesk.getState().refreshStatus();
    const quiet = (): void => {
      statusTimer = null;
      if (!pending) return;
      pending = false;
      void useDesk.getState().refreshStatus();
      statusTimer = setTimeout(quiet, STATUS_REFRESH_MS);
    };
    statusTimer = setTimeout(quiet, STATUS_REFRESH_MS);
  };

  let gathered: ExchangeSummary[] = [];
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
    refreshStatusSoon();
  };
  const gather = (x: ExchangeSummary): void => {
    gathered.push(x);
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
    if (name === 'exchange') gather((payload as ExchangeEvent).exchange);
    else if (name === 'status') {
      s.setStatus(payload as DeskStatus);
    }
  });

  return () => {
    offConnection();
    offEvents();
    if (statusTimer !== null) clearTimeout(statusTimer);
    if (frame !== null) cancelAnimationFrame(frame);
    if (fallback !== null) clearTimeout(fallback);
  };
}
