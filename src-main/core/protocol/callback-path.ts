// Which callback a request path is. The spec writes the callbacks as /platform/pay and
// /platform/results, where "platform" is a neutral stand-in: each operator mounts them under a prefix
// of its own (/acme, /api/v2/acme), which a profile records as its callback prefix. The query string
// and fragment never count. Matching is case-sensitive, like the paths of the spec. One trailing
// slash is tolerated because common routers treat /acme/pay/ as /acme/pay.
import type { Finding } from '../../shared/model';

export type CallbackPathKind = 'pay' | 'results' | 'other';

/** The spec's own spelling; what a profile without a prefix of its own expects. */
export const DEFAULT_CALLBACK_PREFIX = '/platform';

export interface CallbackRoute {
  kind: CallbackPathKind;
  /** The path is the prefix followed by /pay or /results (the prefix may sit under the operator URL's own path). */
  atPrefix: boolean;
}

const PLATFORM_PATH = /(?:^|\/)platform\/(pay|results)\/?$/;
const ANY_CALLBACK = /(?:^|\/)(pay|results)\/?$/;
/** One or more segments of URL path characters, each after a slash; no trailing slash, query or fragment. */
const PREFIX = /^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/;

function withoutQuery(path: string): string {
  const cut = path.search(/[?#]/);
  return cut < 0 ? path : path.slice(0, cut);
}

function asKind(word: string | undefined): CallbackPathKind {
  return word === 'pay' ? 'pay' : word === 'results' ? 'results' : 'other';
}

/** The kind by the spec's spelling alone (/platform/pay, /x/platform/results): for callers without a profile. */
export function kindOfPath(path: string): CallbackPathKind {
  return asKind(PLATFORM_PATH.exec(withoutQuery(path))?.[1]);
}

/**
 * The kind of a path under a profile's callback prefix. A path ending in /pay or /results is that kind
 * whatever comes before it; atPrefix says whether what comes before ends with the expected prefix at a
 * segment boundary (so /acme/pay and /api/acme/pay are both at the prefix /acme, /other/pay is not).
 */
export function callbackRoute(path: string, prefix: string): CallbackRoute {
  const bare = withoutQuery(path).replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  const kind = asKind(ANY_CALLBACK.exec(bare)?.[1]);
  if (kind === 'other') return { kind, atPrefix: false };
  const rooted = bare.startsWith('/') ? bare : `/${bare}`;
  const trimmed = rooted.endsWith('/') ? rooted.slice(0, -1) : rooted;
  // The expected path starts with a slash, so a suffix match always starts at a segment boundary.
  return { kind, atPrefix: trimmed.endsWith(callbackPath(prefix, kind)) };
}

/** Why a prefix is not usable, or null when it is. */
export function callbackPrefixProblem(prefix: string): string | null {
  if (typeof prefix !== 'string' || prefix === '') return 'a callback prefix is a path such as /platform or /api/v2/acme';
  if (!prefix.startsWith('/')) return `the callback prefix "${prefix}" must start with a slash (/acme)`;
  if (prefix.endsWith('/')) return `the callback prefix "${prefix}" must not end with a slash (/acme, not /acme/)`;
  if (/[?#]/.test(prefix)) return `the callback prefix "${prefix}" must not carry a query or a fragment`;
  if (!PREFIX.test(prefix)) return `the callback prefix "${prefix}" must be one or more path segments of URL path characters (/acme, /api/v2/acme)`;
  return null;
}

export function isCallbackPrefix(prefix: string): boolean {
  return callbackPrefixProblem(prefix) === null;
}

/** The path of a callback under a prefix: /acme + pay is /acme/pay. */
export function callbackPath(prefix: string, kind: 'pay' | 'results'): string {
  return `${prefix}/${kind}`;
}

/** The info finding of a callback judged by its last segment although it is not under the expected prefix. */
export function prefixFinding(route: CallbackRoute, expectedPrefix: string): Finding | null {
  if (route.kind === 'other' || route.atPrefix) return null;
  return {
    level: 'info',
    path: '$',
    message: `Judged as ${route.kind} by its last segment, but the profile's callback prefix is ${expectedPrefix} (it expects ${callbackPath(expectedPrefix, route.kind)}): a wrong callback URL, or a profile to update.`,
  };
}
