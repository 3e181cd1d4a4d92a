// The secret look-ups every feature that signs, verifies or redacts needs, with the cache that keeps them
// cheap on the capture path. They take the profile store and a data-version probe as explicit inputs.
import { DeskFailure } from '../result';
import type { SecretCandidate } from '../signing';
import type { Profiles, ProfileSecrets, StoredSigningSecret } from '../store/contract/profiles';

export interface SecretLookups {
  /** The named profile, or the active one; null when there is none. Throws not-found for an unknown name. */
  profile(name?: string): ProfileSecrets | null;
  /** Secrets to verify with: the profile's own first (primary), then every other stored one, for diagnosis. */
  signingCandidates(profile?: string): SecretCandidate[];
}

export interface SecretCache extends SecretLookups {
  /** Drops cached secrets after a profile changed through this connection. */
  invalidate(): void;
}

/**
 * The store and the secret look-ups: what recording, exporting and redacting a capture take. Of the store
 * they read only the profiles, through the contract: the desk's context gives its whole store.
 */
export interface StoreAndSecrets extends SecretLookups {
  readonly store: { readonly profiles: Profiles };
}

/**
 * Decrypting every stored secret on every captured request would be wasted work: the look-ups cache until
 * a profile changes, here (invalidate) or in another process (`wager-desk profile set` while `serve`
 * runs), which `dataVersion` reveals: it moves whenever another connection commits.
 */
export function createSecretCache(profiles: Profiles, dataVersion: () => number): SecretCache {
  let cachedAll: StoredSigningSecret[] | null = null;
  let seenVersion = dataVersion();
  return {
    profile(name?: string): ProfileSecrets | null {
      const wanted = name ?? profiles.activeName();
      if (wanted === null) return null;
      const found = profiles.secrets(wanted);
      if (!found && name !== undefined) throw new DeskFailure('not-found', `No profile named "${name}".`);
      return found;
    },
    signingCandidates(name?: string): SecretCandidate[] {
      const version = dataVersion();
      if (version !== seenVersion) {
        seenVersion = version;
        cachedAll = null;
      }
      cachedAll ??= profiles.allSigningSecrets();
      const primaryName = name ?? profiles.activeName();
      const primary = cachedAll.find((c) => c.profile === primaryName && !c.previous);
      const others = cachedAll.filter((c) => c !== primary);
      return [...(primary ? [{ ...primary, primary: true }] : []), ...others];
    },
    invalidate() {
      cachedAll = null;
    },
  };
}
