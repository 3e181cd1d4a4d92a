import { useEffect, useRef, useState } from 'react';

/**
 * Runs an async question after the inputs have been still for `ms`, keeping only the latest answer:
 * the composer asks the desk for findings and the signature preview while the user types.
 */
export function useDebouncedAsk<T>(ask: (() => Promise<T>) | null, deps: readonly unknown[], ms = 250): { value: T | null; pending: boolean } {
  const [value, setValue] = useState<T | null>(null);
  const [pending, setPending] = useState(false);
  const turn = useRef(0);
  useEffect(() => {
    const mine = ++turn.current;
    if (ask === null) {
      setPending(false);
      return;
    }
    setPending(true);
    const t = setTimeout(() => {
      void ask().then((v) => {
        if (mine !== turn.current) return;
        setValue(v);
        setPending(false);
      });
    }, ms);
    return () => clearTimeout(t);
    // The caller lists what the question depends on.
  }, deps);
  return { value, pending };
}
