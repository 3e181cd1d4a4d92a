import type { DeskEventListener } from '../../shared/desk-api';
import type { GuardRails } from '../proxy';
import type { SecretCandidate } from '../signing';
import type { ProfileSecrets, Store } from '../store';
import { DeskFailure } from '../result';

export interface DeskOptions {
  /** The data directory (database and key file). */
  home: string;
  /** better_sqlite3.node for the running ABI, when it is not the default build (Electron). */
  nativeBinding?: string;
  /** Largest request body the proxy keeps (default 1 MiB). */
  maxBodyBytes?: number;
  /** How long the proxy waits for the upstream (default 30 s). */
  upstreamTimeoutMs?: number;
  /** How long outbound requests (replay, send, check, token) wait (default 30 s). */
  outboundTimeoutMs?: number;
  /** The proxy's timeouts and header size limit (default DEFAULT_GUARD_RAILS); a start's own options win. */
  proxyGuardRails?: Partial<GuardRails>;
}

/** What every part of the desk shares: the store, the event channel, and secret look-ups. Main side only. */
export interface DeskContext {
  readonly options: Required<Omit<DeskOptions, 'nativeBinding'>> & Pick<DeskOptions, 'nativeBinding'>;
  readonly store: Store;
  readonly emit: DeskEventListener;
  /** The named profile, or the active one; null when there is none. Throws not-found for an unknown name. */
  profile(name?: string): ProfileSecrets | null;
  /** Secrets to verify with: the profile's own first (primary), then every other stored one, for diagnosis. */
  signingCandidates(profile?: string): SecretCandidate[];
  /** Drops cached secrets after a profile changed. */
  invalidateSecrets(): void;
  /** Registers clean-up to run when the desk closes (servers, timers). */
  onClose(fn: () => Promise<void> | void): void;
}

export function createContext(store: Store, options: DeskContext['options'], emit: DeskEventListener): DeskContext & { runClosers(): Promise<void> } {
  const closers: Array<() => Promise<void> | void> = [];
  // Decrypting every stored secret on every captured request would be wasted work: cache until a profile
  // changes, here (invalidateSecrets) or in another process (`wager-desk profile set` while `serve` runs),
  // which PRAGMA data_version reveals: it moves whenever another connection commits.
  let cachedAll: Array<{ profile: string; secret: string }> | null = null;
  const dataVersion = store.db.prepare('PRAGMA data_version').pluck();
  let seenVersion: unknown = dataVersion.get();

  const profile = (name?: string): ProfileSecrets | null => {
    const wanted = name ?? store.profiles.activeName();
    if (wanted === null) return null;
    const found = store.profiles.secrets(wanted);
    if (!found && name !== undefined) throw new DeskFailure('not-found', `No profile named "${name}".`);
    return found;
  };

  return {
    options,
    store,
    emit,
    profile,
    signingCandidates(name?: string): SecretCandidate[] {
      const version = dataVersion.get();
      if (version !== seenVersion) {
        seenVersion = version;
        cachedAll = null;
      }
      cachedAll ??= store.profiles.allSigningSecrets();
      const primaryName = name ?? store.profiles.activeName();
      const primary = cachedAll.find((c) => c.profile === primaryName);
      const others = cachedAll.filter((c) => c !== primary);
      return [...(primary ? [{ ...primary, primary: true }] : []), ...others];
    },
    invalidateSecrets() {
      cachedAll = null;
    },
    onClose(fn) {
      closers.push(fn);
    },
    async runClosers() {
      for (const fn of closers.reverse()) await fn();
    },
  };
}
