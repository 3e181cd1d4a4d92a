import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * How many monospace characters fit in each of the given column headers (the cells below have the same
 * width): measured once per resize, so the rows themselves never measure.
 */
export function useColumnRoom(columns: ReadonlyArray<RefObject<HTMLElement | null>>, probe: RefObject<HTMLElement | null>): number[] {
  const [room, setRoom] = useState<number[]>(() => columns.map(() => 12));
  const last = useRef('');
  useLayoutEffect(() => {
    const measure = (): void => {
      const p = probe.current;
      const charWidth = p ? p.getBoundingClientRect().width / (p.textContent?.length || 1) : 7.3;
      const next = columns.map((c) => Math.max(3, Math.floor((c.current?.clientWidth ?? 0) / charWidth)));
      const key = next.join(',');
      if (key !== last.current) {
        last.current = key;
        setRoom(next);
      }
    };
    measure();
    const observer = new ResizeObserver(measure);
    for (const c of columns) if (c.current) observer.observe(c.current);
    return () => observer.disconnect();
    // The refs are stable; their elements are observed once mounted.
  }, []);
  return room;
}
