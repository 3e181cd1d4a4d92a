import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';

/** Where a split's left width is kept between runs, per screen. */
const storageKey = (id: string): string => `wager-desk.split.${id}`;
const STEP = 24;
/** The handle's column, as the grid below gives it. */
const HANDLE_WIDTH = 6;

function storedWidth(id: string): number | null {
  try {
    const n = Number(localStorage.getItem(storageKey(id)));
    return Number.isFinite(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/**
 * A list beside a detail, with a handle between them to drag (or move with the arrow keys). The left
 * width is remembered per screen; both sides keep their minimum, so the list's columns always fit.
 */
export function SplitPane(props: { id: string; left: ReactNode; right: ReactNode; minLeft: number; minRight: number; className?: string; testId?: string }) {
  const { id, minLeft, minRight } = props;
  const host = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(() => storedWidth(id));
  const [hostWidth, setHostWidth] = useState(0);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHostWidth(el.clientWidth));
    observer.observe(el);
    setHostWidth(el.clientWidth);
    return () => observer.disconnect();
  }, []);

  // The handle takes its own width: the detail keeps its minimum beside it, and nothing overflows.
  const clamp = useCallback(
    (w: number) => Math.round(Math.max(minLeft, Math.min(w, Math.max(minLeft, hostWidth - minRight - HANDLE_WIDTH)))),
    [hostWidth, minLeft, minRight],
  );
  const commit = useCallback(
    (w: number) => {
      const next = clamp(w);
      setWidth(next);
      try {
        localStorage.setItem(storageKey(id), String(next));
      } catch {
        // Storage can be unavailable (a locked-down profile): the split still works for this run.
      }
    },
    [clamp, id],
  );

  const onPointerDown = (e: PointerEvent<HTMLDivElement>): void => {
    e.preventDefault();
    const handle = e.currentTarget;
    handle.setPointerCapture(e.pointerId);
    // Where on the handle it was grabbed: the handle moves with the pointer, it does not jump to it.
    const left = host.current!.getBoundingClientRect().left + (e.clientX - handle.getBoundingClientRect().left);
    const move = (ev: globalThis.PointerEvent): void => setWidth(clamp(ev.clientX - left));
    const up = (ev: globalThis.PointerEvent): void => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      commit(ev.clientX - left);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
  };

  const current = hostWidth === 0 ? null : clamp(width ?? hostWidth * 0.55);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (current === null) return;
    const delta = e.key === 'ArrowLeft' ? -STEP : e.key === 'ArrowRight' ? STEP : 0;
    if (delta === 0) return;
    e.preventDefault();
    commit(current + delta);
  };

  return (
    <div
      ref={host}
      className={`split split-resizable${props.className ? ` ${props.className}` : ''}`}
      style={{ gridTemplateColumns: current === null ? undefined : `${current}px ${HANDLE_WIDTH}px minmax(${minRight}px, 1fr)` }}
      data-testid={props.testId}
    >
      <div className="split-left">{props.left}</div>
      <div
        className="split-handle"
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize the list and the detail"
        aria-valuenow={current ?? undefined}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onKeyDown={onKeyDown}
        data-testid="split-handle"
      />
      <div className="split-right">{props.right}</div>
    </div>
  );
}
