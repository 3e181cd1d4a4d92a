import { useCallback } from 'react';
import { useDesk } from '../../store';

/** Opens an exchange in the capture inspector's detail pane (the full story: verdict, findings, bytes). */
export function useOpenInCaptures(): (id: number) => void {
  const select = useDesk((s) => s.select);
  const openExchange = useDesk((s) => s.openExchange);
  const setView = useDesk((s) => s.setView);
  return useCallback(
    (id: number) => {
      select(id);
      void openExchange(id);
      setView('captures');
    },
    [select, openExchange, setView],
  );
}
