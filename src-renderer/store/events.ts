// Wires the desk's events into the store, once, at start. Each slice decides what an event means for
// it; this file only routes. The status counts are refreshed at most twice a second under a burst of
// captures (the first at once, the rest gathered), rather than once per capture.
import type { DeskStatus, ExchangeSummary } from '../../src-main/shared/model';
import { desk } from '../api';
import { useDesk } from './index';

const STATUS_REFRESH_MS = 500;

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

  const start = useDesk.getState();
  void start.reloadCaptures();
  void start.refreshStatus();

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

  const offEvents = desk.onEvent((name, payload) => {
    const s = useDesk.getState();
    if (name === 'exchange') {
      const x = payload as ExchangeSummary;
      s.applyExchange(x);
      s.noteExchangeForDetail(x);
      s.noteExchangeForTimeline(x);
      refreshStatusSoon();
    } else if (name === 'status') {
      s.setStatus(payload as DeskStatus);
    }
  });

  return () => {
    offConnection();
    offEvents();
    if (statusTimer !== null) clearTimeout(statusTimer);
  };
}
