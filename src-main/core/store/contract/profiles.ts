// The profiles as the desk uses them, whatever holds them: views for a person (secrets as set/unset and a
// fingerprint), the changes a person makes, and the secrets opened for the main side (signing, verifying,
// redacting, probing balances). Every reader is synchronous: the proxy routes, judges and redacts each
// callback with them, with no round trip.
//
// One implementation: the SQLite ProfileStore (store/sqlite/profiles.ts). On a team's PostgreSQL the
// profiles are still that ProfileStore, over an in-memory SQLite copy of the team's rows
// (store/sqlite/profile-copy.ts) that the desk fills from the team's database and writes back to
// (desk/team-profiles.ts); the copy's own upkeep (the data directory's stored choice, the sealed values
// replaced from elsewhere) is that wiring's business and not part of this contract.
import type { BalanceUnits, HeaderList, ProfileInput, ProfileView } from '../../../shared/model';
import { maskedBalanceUrl } from '../../balance-probe/probe-secrets';
import type { SecretCandidate } from '../../signing';

/** A profile's balance probe with its header values in clear: main side only (the probe sends them). */
export interface BalanceProbeSecrets {
  url: string | null;
  path: string | null;
  units: BalanceUnits | null;
  /** The headers to send, and the signing key under HMAC_KEY_ENTRY (never sent: the header templates use it). */
  headers: HeaderList;
  answerPath: string | null;
}

/** What a profile holds in clear, as its view shows it. */
type ClearFields = Pick<
  ProfileView,
  'name' | 'operatorUrl' | 'baseUrl' | 'operatorId' | 'upstream' | 'production' | 'allowSelfSigned' | 'callbackPrefix' | 'amounts' | 'currency'
>;

/** A profile with its secrets in clear: only for the main side (signing, token requests), never returned by the API. */
export interface ProfileSecrets extends ClearFields {
  secret: string | null;
  /** The secret being rotated out: still accepted by verification, never used to sign. */
  previousSecret: string | null;
  apiKey: string | null;
  /** The balance probe (the view's `balance`, opened). Absent where a profile is made by hand (a test, a one-off send): no probe. */
  balance?: BalanceProbeSecrets;
}

/** A signing secret as stored, with whose it is: a verdict's candidate before one is chosen as primary. */
export type StoredSigningSecret = Omit<SecretCandidate, 'primary'>;

/** Named environments. Secrets are sealed where they are kept; views carry only set/unset and a fingerprint. */
export interface Profiles {
  list(): ProfileView[];
  get(name: string): ProfileView | null;
  /** The active profile's name, or null when none is (or the one chosen is no longer among the profiles). */
  activeName(): string | null;
  /** Creates or updates a profile; only the fields present in the input change. The first profile becomes active. */
  save(input: ProfileInput): ProfileView;
  /** A copy under a new name, with a callback prefix named after it (one proxy serves both). */
  duplicate(name: string, newName: string): ProfileView;
  /** Makes the profile the active one (each desk's own choice). */
  use(name: string): ProfileView;
  remove(name: string): void;
  /** The profile with its secrets opened. Main side only. */
  secrets(name: string): ProfileSecrets | null;
  /**
   * Every stored signing secret with its profile name, each profile's current one before its previous
   * one (marked): the candidates for a verdict during a rotation and for a signature diagnosis.
   */
  allSigningSecrets(): StoredSigningSecret[];
  /** The fingerprint of a profile's current signing secret (what a re-verification records), or null. */
  secretFingerprint(name: string): string | null;
  /** Every stored API key, opened: what redaction must find wherever headers are written out. */
  allApiKeys(): string[];
  /** Every stored balance-probe credential, opened, in each form it can appear alone: redaction finds them too. */
  allProbeCredentials(): string[];
  /** Throws SecretKeyError (one line naming the key file and the ways out) when stored secrets cannot be opened. */
  checkKey(): void;
  /** The refusal checkKey would throw, as its one line, or null: for listings that show it as a warning. */
  keyProblem(): string | null;
}

/** Whether a save seals a secret: a new key's first use, and on a team's database a key the team must share. */
export function sealsSecret(input: ProfileInput): boolean {
  return (
    [input.secret, input.previousSecret, input.apiKey, input.balanceHmacKey].some((v) => typeof v === 'string' && v !== '') ||
    (input.balanceHeaders?.length ?? 0) > 0 ||
    (typeof input.balanceUrl === 'string' && maskedBalanceUrl(input.balanceUrl.trim()) !== input.balanceUrl.trim())
  );
}
