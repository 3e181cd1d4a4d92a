import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { DEFAULT_CALLBACK_PREFIX } from '../../components/callback-prefix';
import { useColumnRoom } from '../../components/use-column-room';
import { useOpenExchange } from '../../components/use-open-exchange';
import { useDesk } from '../../store';
import { indexOfId } from '../../store/query-match';
import { useActiveProfile } from '../profiles/use-active-profile';
import { CaptureRow, ROW_HEIGHT } from './CaptureRow';

/** Load the next page when the user scrolls within this many rows of the end. */
const PREFETCH_ROWS = 60;

/**
 * The capture list: virtualized (only the visible rows exist in the page, so 100,000 rows scroll like
 * 100), paged from the database as the user scrolls, live, and driven by the keyboard. `withProfile`:
 * the rows span profiles, so each says whose it is.
 */
export function CaptureList({ withProfile = false }: { withProfile?: boolean }) {
  const items = useDesk((s) => s.captures);
  const next = useDesk((s) => s.capturesNext);
  const stoppedAfter = useDesk((s) => s.capturesStoppedAfter);
  const loading = useDesk((s) => s.capturesLoading);
  const selectedId = useDesk((s) => s.selectedId);
  const openId = useDesk((s) => s.openId);
  const loadMore = useDesk((s) => s.loadMoreCaptures);
  const moveSelection = useDesk((s) => s.moveSelection);
  const openExchange = useDesk((s) => s.openExchange);
  const callbackPrefix = useActiveProfile().profile?.callbackPrefix ?? DEFAULT_CALLBACK_PREFIX;
  const open = useOpenExchange();

  const scrollRef = useRef<HTMLDivElement>(null);
  const depositHead = useRef<HTMLSpanElement>(null);
  const userHead = useRef<HTMLSpanElement>(null);
  const profileHead = useRef<HTMLSpanElement>(null);
  const probe = useRef<HTMLSpanElement>(null);
  const [depositRoom, userRoom, profileRoom] = useColumnRoom([depositHead, userHead, profileHead], probe) as [number, number, number];
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    getItemKey: (i) => items[i]!.id,
  });
  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows[rows.length - 1]?.index ?? -1;

  useEffect(() => {
    if (next !== null && !loading && lastIndex >= items.length - PREFETCH_ROWS) void loadMore();
  }, [lastIndex, items.length, next, loading, loadMore]);

  // A live capture lands on top. When the user has scrolled down to read, keep the rows they read in
  // place instead of pushing them down by one row per new capture.
  const previousTop = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const top = items[0]?.id ?? null;
    const before = previousTop.current;
    previousTop.current = top;
    if (!el || before === null || top === null || top === before || el.scrollTop === 0) return;
    const shift = indexOfId(items, before);
    if (shift > 0) el.scrollTop += shift * ROW_HEIGHT;
  }, [items]);

  const pick = useCallback(
    (id: number) => {
      open(id);
      scrollRef.current?.focus({ preventScroll: true });
    },
    [open],
  );

  const pageRows = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: pageRows, PageUp: -pageRows, Home: -Infinity, End: Infinity };
    const delta = moves[e.key];
    if (delta !== undefined) {
      e.preventDefault();
      const index = moveSelection(Number.isFinite(delta) ? delta : delta > 0 ? items.length : -items.length);
      if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
      return;
    }
    if (e.key === 'Enter' && selectedId !== null) {
      e.preventDefault();
      void openExchange(selectedId);
    }
  };

  return (
    <div className="capture-list">
      <div className={`capture-grid capture-header${withProfile ? ' with-profile' : ''}`} role="presentation">
        <span>Time</span>
        {withProfile && (
          <span ref={profileHead} data-testid="capture-header-profile">
            Profile
          </span>
        )}
        <span>Kind · result</span>
        <span ref={depositHead}>depositId</span>
        <span ref={userHead}>userId</span>
        <span className="num">Amount</span>
        <span>Signature</span>
        <span>Status</span>
        <span ref={probe} className="mono measure-probe" aria-hidden="true">
          0123456789
        </span>
      </div>
      <div
        ref={scrollRef}
        className="capture-scroll"
        tabIndex={0}
        role="listbox"
        aria-label="Captured exchanges"
        aria-activedescendant={selectedId !== null ? `capture-${selectedId}` : undefined}
        onKeyDown={onKeyDown}
        data-testid="capture-list"
        data-count={items.length}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {rows.map((row) => {
            const x = items[row.index]!;
            return (
              <CaptureRow
                key={x.id}
                x={x}
                top={row.start}
                selected={x.id === selectedId}
                opened={x.id === openId}
                depositRoom={depositRoom}
                userRoom={userRoom}
                profileRoom={withProfile ? profileRoom : null}
                callbackPrefix={callbackPrefix}
                onPick={pick}
              />
            );
          })}
        </div>
      </div>
      <div className="list-footer muted small" data-testid="list-footer">
        {items.length.toLocaleString()} loaded
        {loading
          ? ' · loading…'
          : stoppedAfter !== null
            ? ` · stopped after ${stoppedAfter} s: the search ran out of time, narrow it to see the rest`
            : next !== null
              ? ' · more load as you scroll'
              : ' · that is all'}
      </div>
    </div>
  );
}
