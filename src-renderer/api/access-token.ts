// The web mode's per-run token arrives in the URL fragment (never sent to the server, never in a
// Referer). It is moved out of the address bar at once, so it does not linger in history or in a
// screenshot, and kept in sessionStorage so that reloading the tab keeps working; closing the tab
// forgets it. The rest of the fragment (an exchange's route, #/exchange/ID&token=...) stays.
const STORAGE_KEY = 'wager-desk.token';
const TOKEN_IN_FRAGMENT = /(?:^#|&)token=([A-Za-z0-9_-]{16,512})(?:&|$)/;

export function takeAccessToken(): string | null {
  const match = TOKEN_IN_FRAGMENT.exec(window.location.hash);
  if (match?.[1]) {
    try {
      window.sessionStorage.setItem(STORAGE_KEY, match[1]);
    } catch {
      // storage disabled: the token still lives in memory for this page
    }
    const rest = window.location.hash
      .replace(/^#/, '')
      .split('&')
      .filter((part) => !part.startsWith('token='))
      .join('&');
    window.history.replaceState(null, '', window.location.pathname + window.location.search + (rest ? `#${rest}` : ''));
    return match[1];
  }
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * A token pasted into the address bar of an open page changes only the fragment, which does not reload
 * the page: take it and start afresh with it.
 */
export function reloadOnNewToken(): void {
  window.addEventListener('hashchange', () => {
    if (TOKEN_IN_FRAGMENT.test(window.location.hash) && takeAccessToken() !== null) window.location.reload();
  });
}
