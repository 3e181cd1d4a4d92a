// Keeps the address and the open exchange in step: a route in the address (at start, or pasted while
// the page is open) opens its exchange in the capture inspector, and opening or closing an exchange
// rewrites the route without adding a history entry per click.
import { exchangeIdInHash, exchangeRoute } from '../components/exchange-link';
import { useDesk } from './index';

function openFromHash(): void {
  const id = exchangeIdInHash(window.location.hash);
  if (id === null) return;
  const s = useDesk.getState();
  if (s.openId === id) return;
  s.setView('captures');
  s.select(id);
  void s.openExchange(id);
}

export function connectRoute(): () => void {
  openFromHash();
  window.addEventListener('hashchange', openFromHash);
  const unsubscribe = useDesk.subscribe((s, before) => {
    if (s.openId === before.openId) return;
    const wanted = s.openId === null ? '' : exchangeRoute(s.openId);
    if (window.location.hash === wanted || (wanted === '' && exchangeIdInHash(window.location.hash) === null)) return;
    window.history.replaceState(null, '', window.location.pathname + window.location.search + wanted);
  });
  return () => {
    window.removeEventListener('hashchange', openFromHash);
    unsubscribe();
  };
}
