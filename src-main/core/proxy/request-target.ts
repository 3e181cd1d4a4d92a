// A request's target as the proxy reads it, once, at the door: the path it keeps (as received), the one
// path that chooses the profile, decides the kind and goes upstream, and why it is refused when its
// spelling has no one reading (../protocol/target-path.ts).
import type { Finding } from '../../shared/model';
import { ambiguousPath, normalizedPath, slashReading } from '../protocol/target-path';
import type { RoutingTable } from './routes';

export interface RequestTarget {
  /** The path as received, without the query: what the row keeps, as evidence. */
  received: string;
  /** The query as received, without its "?". */
  query: string;
  /** The query as received, with its "?" (empty when the target had none). */
  search: string;
  /** The one reading of the path: the profile, the kind and the forward all follow it. */
  path: string;
  /** The path as servers that take %2F and backslashes for slashes read it; null: it holds neither. */
  slashReading: string | null;
  /** Why the path has no one reading (the request is refused), or null. */
  ambiguity: string | null;
}

export function requestTarget(url: string): RequestTarget {
  const q = url.indexOf('?');
  const received = q < 0 ? url : url.slice(0, q);
  const search = q < 0 ? '' : url.slice(q);
  return {
    received,
    query: search.slice(1),
    search,
    path: normalizedPath(received),
    slashReading: slashReading(received),
    ambiguity: ambiguousPath(received),
  };
}

/** The target's profile, by its one reading; a path that another reading gives to another profile is ambiguous. */
export function routeOfTarget(target: RequestTarget, routes: RoutingTable): ReturnType<RoutingTable['match']> {
  const route = routes.match(target.path);
  if (target.ambiguity === null && target.slashReading !== null && routes.match(target.slashReading) !== route) {
    target.ambiguity = `an encoded slash (%2F) or a backslash that servers reading it as a slash would take to ${JSON.stringify(target.slashReading)}, under another profile's prefix`;
  }
  return route;
}

/** Path and query, as sent upstream (before the upstream's base path). */
export function forwardedTarget(t: RequestTarget): string {
  return t.path + t.search;
}

/** Whether the path was read otherwise than it was written (dot or empty segments). */
export function wasNormalized(t: RequestTarget): boolean {
  return t.path !== (t.received.startsWith('/') ? t.received : `/${t.received}`);
}

/** What the row says of its target: how it was read, or why it was refused. */
export function targetFindings(t: RequestTarget): Finding[] {
  if (t.ambiguity !== null) {
    return [{ level: 'error', path: '$', message: `the request target's path holds ${t.ambiguity}: refused 400, neither judged nor forwarded` }];
  }
  if (!wasNormalized(t)) return [];
  return [
    {
      level: 'warning',
      path: '$',
      message: `the request target's path has dot or empty segments: it was read as ${JSON.stringify(t.path)}, which chose the profile, the kind and what was forwarded`,
    },
  ];
}
