import { useCallback } from 'react';
import { useDesk } from '../store';

/** Selects an exchange and loads it into the detail pane, on the screen that is showing. */
export function useOpenExchange(): (id: number) => void {
  const select = useDesk((s) => s.select);
  const openExchange = useDesk((s) => s.openExchange);
  return useCallback(
    (id: number) => {
      select(id);
      void openExchange(id);
    },
    [select, openExchange],
  );
}

/** Opens an exchange in the capture inspector's detail pane (the full story: verdict, findings, bytes). */
export function useOpenInCaptures(): (id: number) => void {
  const open = useOpenExchange();
  const setView = useDesk((s) => s.setView);
  return useCallback(
    (id: number) => {
      open(id);
      setView('captures');
    },
    [open, setView],
  );
}
