// Which profile a request to the proxy belongs to. One proxy serves every profile's callback prefix:
// a request under profile P's prefix is P's capture, verified with P's secrets, forwarded to P's
// upstream or answered in P's sandbox books. The table is built when the profiles change, never per
// request: a request costs a Map look-up per segment of its path (longest prefix first).
//
// A proxy that serves one route (one profile, `serve --profile P`, or a desk without profiles) stays
// transparent: every request is that route's, as a single-operator proxy always was. With several, a
// request under no prefix belongs to nobody: it is recorded unassigned and answered 404 by the desk.
import type { CallbackSettings } from '../protocol/callback-settings';
import type { SecretCandidate } from '../signing';

export interface ProfileRoute {
  /** The profile; null: a desk without profiles (its rows stay unassigned). */
  readonly profile: string | null;
  /** Where its callbacks are mounted and how its operator writes amounts. */
  readonly settings: CallbackSettings;
  /** Forward target; null: the sandbox answers, in this profile's books. */
  readonly upstream: URL | null;
  /** The secrets to verify with, this profile's current one primary. Called per request: must be cheap. */
  candidates(): SecretCandidate[];
}

export class RoutingTable {
  private readonly byPrefix = new Map<string, ProfileRoute>();
  /** The only route, when there is one: it takes every request. */
  private readonly only: ProfileRoute | null;

  /** Routes in order of precedence: a later route whose prefix is taken already is left out (see `shadowed`). */
  constructor(routes: readonly ProfileRoute[]) {
    const kept: ProfileRoute[] = [];
    for (const route of routes) {
      if (this.byPrefix.has(route.settings.prefix)) continue;
      this.byPrefix.set(route.settings.prefix, route);
      kept.push(route);
    }
    this.routes = kept;
    this.shadowed = routes.filter((r) => !kept.includes(r));
    this.only = kept.length === 1 ? kept[0]! : null;
  }

  /** The routes served, in order of precedence. */
  readonly routes: readonly ProfileRoute[];
  /** Routes left out because an earlier one has the same prefix (profiles saved before prefixes had to differ). */
  readonly shadowed: readonly ProfileRoute[];

  /** The route of a request path (without its query): the longest prefix it lies under; null: none. */
  match(path: string): ProfileRoute | null {
    if (this.only !== null) return this.only;
    let end = path.length;
    while (end > 0) {
      const found = this.byPrefix.get(end === path.length ? path : path.slice(0, end));
      if (found !== undefined) return found;
      end = path.lastIndexOf('/', end - 1);
    }
    return null;
  }

  /** The prefixes served, for a refusal that says where callbacks go. */
  prefixes(): string[] {
    return [...this.byPrefix.keys()];
  }
}

/** Why a request got no route, in words (the row's error and the desk's 404 say it). */
export function unassignedReason(table: RoutingTable): string {
  return `no profile's callback prefix matches this path (the proxy serves ${table.prefixes().join(', ')})`;
}
