// Whether a captured callback arrived under the active profile's callback prefix. The desk judges a
// path ending in /pay or /results as that callback wherever it is mounted; the list shows the path of
// one that is not where the profile expects it, since that is often the integration's bug. A prefix
// under the operator's own path (/api/acme/pay for /acme) counts as at the prefix, as the desk judges it.

/** Where the spec writes the callbacks; a profile without a prefix of its own uses it. */
export const DEFAULT_CALLBACK_PREFIX = '/platform';

/** The path to show beside a callback that is not at `<prefix>/pay|results`, or null when it is (or is no callback). */
export function pathOutsidePrefix(x: { kind: string; path: string }, prefix: string): string | null {
  if (x.kind !== 'pay' && x.kind !== 'results') return null;
  const bare = x.path.replace(/[?#].*$/, '').replace(/\/$/, '');
  return bare.endsWith(`${prefix}/${x.kind}`) ? null : x.path;
}
