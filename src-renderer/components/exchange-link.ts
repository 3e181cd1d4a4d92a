// An exchange's address: the route #/exchange/ID in the URL fragment, so that a link in a ticket or a
// chat opens the exchange (the web UI's http://127.0.0.1:PORT/#/exchange/ID; the app's own page takes
// the same route). The fragment never reaches the server; the access token may share it
// (#/exchange/ID&token=...), and access-token.ts takes the token out and leaves the route.
const ROUTE = /^#\/exchange\/(\d{1,15})(?:&|$)/;

/** The exchange a URL fragment names, or null. */
export function exchangeIdInHash(hash: string): number | null {
  const match = ROUTE.exec(hash);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function exchangeRoute(id: number): string {
  return `#/exchange/${id}`;
}

/** The link to copy: the page's address with the route (in the app, whose page is a file, the route alone). */
export function exchangeLink(id: number, location: Pick<Location, 'protocol' | 'origin' | 'pathname'> = window.location): string {
  if (location.protocol !== 'http:' && location.protocol !== 'https:') return exchangeRoute(id);
  return `${location.origin}${location.pathname}${exchangeRoute(id)}`;
}
