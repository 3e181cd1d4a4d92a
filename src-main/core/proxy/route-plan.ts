// The routing table a proxy configuration gives: one route per profile (or the one profile a start
// names), the start's own upstream, secret and callback prefix applying to the primary route (the named
// profile, else the active one). Built at the start and again only when the profiles change (this
// process's saves, or another's, which the store's data version reveals), never per request.
import type { CallbackSettings } from '../protocol/callback-settings';
import { DeskFailure } from '../result';
import type { SecretCandidate } from '../signing';
import { checkUpstream, type ProxyStartOptions } from './options';
import { RoutingTable, type ProfileRoute } from './routes';

/** What building routes needs from the desk. */
export interface RouteSource {
  /** Every profile's name, in listing order. */
  profileNames(): string[];
  activeProfile(): string | null;
  /** Moves whenever a profile may have changed (here or in another process). */
  profilesVersion(): number;
  /** The stored upstream of the named (else active) profile. */
  profileUpstream(profile?: string): string | null;
  signingCandidates(profile?: string): SecretCandidate[];
  /** The named (else active) profile's callback prefix and amounts; `callbackPrefix` (a start's own) wins. */
  callbackSettings(profile: string | undefined, callbackPrefix: string | undefined): CallbackSettings;
}

type PerTurn = <T>(lookUp: () => T) => () => T;

/** The table of a configuration, checked now (a malformed prefix or upstream refuses the start), then kept up to date. */
export function routingFor(source: RouteSource, config: ProxyStartOptions, perTurn: PerTurn): () => RoutingTable {
  let version = source.profilesVersion();
  let table = buildTable(source, config);
  return perTurn(() => {
    const now = source.profilesVersion();
    if (now === version) return table;
    version = now;
    try {
      table = buildTable(source, config);
    } catch {
      // A profile changed into something unusable (a malformed upstream): the table in force stays.
    }
    return table;
  });
}

function buildTable(source: RouteSource, config: ProxyStartOptions): RoutingTable {
  const named = config.profile ?? undefined;
  const names = source.profileNames();
  if (named !== undefined && !names.includes(named)) throw new DeskFailure('not-found', `No profile named "${named}".`);
  const primary = named ?? source.activeProfile();
  // The primary first: where two profiles saved long ago share a prefix, it is the one served.
  const served = named !== undefined ? [named] : [...names.filter((n) => n === primary), ...names.filter((n) => n !== primary)];
  if (served.length === 0) return new RoutingTable([routeOf(source, config, null, true)]);
  return new RoutingTable(served.map((name) => routeOf(source, config, name, name === primary)));
}

function routeOf(source: RouteSource, config: ProxyStartOptions, name: string | null, primary: boolean): ProfileRoute {
  const profile = name ?? undefined;
  const upstreamText = primary && config.upstream !== undefined ? config.upstream : source.profileUpstream(profile);
  const settings = source.callbackSettings(profile, primary ? (config.callbackPrefix ?? undefined) : undefined);
  const override = primary ? (config.secret ?? null) : null;
  const own: SecretCandidate | null = override ? { profile: override.label, secret: override.secret, primary: true } : null;
  // Every request asks for them: looked up again only when the profiles may have changed (the version
  // is read once per turn), not per turn (which cost a settings query and a new list each time).
  let kept: { version: number; candidates: SecretCandidate[] } | null = null;
  const candidates = (): SecretCandidate[] => {
    const version = source.profilesVersion();
    if (kept !== null && kept.version === version) return kept.candidates;
    const stored = source.signingCandidates(profile);
    kept = { version, candidates: own ? [own, ...stored.map((c) => (c.primary ? { ...c, primary: false } : c))] : stored };
    return kept.candidates;
  };
  // A lost or foreign key file refuses the start in one line instead of failing every request later.
  candidates();
  return { profile: name, settings, upstream: upstreamText ? checkUpstream(upstreamText) : null, candidates };
}
