// The URL a request went to. An outbound exchange knows its target; an inbound one was addressed to
// the desk, so its URL is rebuilt from the Host header it carried and the path and query it asked for.
import type { HeaderList } from '../../shared/model';
import { headerValue } from '../outbound/headers';

/** Where no Host header was captured (HTTP/1.0, or an imported HTTP/2 entry), the request was still local. */
const FALLBACK_HOST = 'localhost';

export function inboundUrl(request: { path: string; query: string; headers: HeaderList }): string {
  const pathAndQuery = `${request.path}${request.query ? `?${request.query}` : ''}`;
  // An absolute-form request line (a client that took the desk for a forward proxy) already is a URL.
  if (/^https?:\/\//i.test(request.path)) return pathAndQuery;
  const host = headerValue(request.headers, 'host')?.trim() || FALLBACK_HOST;
  const path = pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`;
  return `http://${host}${path}`;
}

export function exchangeUrl(x: { direction: string; target: string | null; request: { path: string; query: string; headers: HeaderList } }): string {
  return x.direction === 'outbound' && x.target ? x.target : inboundUrl(x.request);
}

/** Path and query of a URL exactly as written: no normalization, no percent-decoding (replay sends these bytes). */
export function splitUrl(raw: string): { path: string; query: string } | null {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)(?:\?([^#]*))?/i.exec(raw);
  if (!m) return null;
  return { path: m[1] || '/', query: m[2] ?? '' };
}
