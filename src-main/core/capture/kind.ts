// The one place that decides what a request is by its path: a callback (pay, results), the token
// request, or anything else. Every way in asks here, so a path is the same kind however it arrived.
import type { ExchangeKind, Finding } from '../../shared/model';
import { callbackRoute, DEFAULT_CALLBACK_PREFIX, prefixFinding } from '../protocol/callback-path';
import { normalizedPath } from '../protocol/target-path';

export { DEFAULT_CALLBACK_PREFIX };

const TOKEN_PATH = /\/create-token\/?$/;

export interface Route {
  kind: ExchangeKind;
  /** What the path itself says worth knowing (a callback outside the configured prefix, say). */
  findings: Finding[];
}

/**
 * The kind of a request path under the profile's callback prefix. A path ending in /pay or /results
 * under another prefix is still that callback (operators mount them where they like), with an info
 * finding naming the prefix the profile expects.
 */
export function routeOf(given: string, callbackPrefix: string = DEFAULT_CALLBACK_PREFIX): Route {
  // Read as the proxy routes it (dot and empty segments resolved), so "/acme/../other/pay" is judged as
  // the path it reaches, whichever way it came in. A URL in absolute form is read by callbackRoute.
  const bare = given.replace(/[?#][\s\S]*$/, '');
  const path = bare.startsWith('/') ? normalizedPath(bare) : bare;
  const route = callbackRoute(path, callbackPrefix);
  if (route.kind !== 'other') {
    const elsewhere = prefixFinding(route, callbackPrefix);
    return { kind: route.kind, findings: elsewhere ? [elsewhere] : [] };
  }
  return { kind: TOKEN_PATH.test(path) ? 'token' : 'other', findings: [] };
}
