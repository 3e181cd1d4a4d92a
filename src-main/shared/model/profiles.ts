// Profiles as the shells see them (no secret, only whether one is set), what a person enters, and the balance probe's readings.
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.
import type { AmountsMode, BalanceUnits } from './exchanges';

/** A named environment. Secrets are never included: only whether one is set and a short fingerprint. */
export interface ProfileView {
  name: string;
  active: boolean;
  operatorUrl: string | null;
  baseUrl: string | null;
  operatorId: string | null;
  upstream: string | null;
  production: boolean;
  allowSelfSigned: boolean;
  /** The path the operator mounts its callbacks under (/platform, /acme, /api/v2/acme): <prefix>/pay, <prefix>/results. */
  callbackPrefix: string;
  amounts: AmountsMode;
  /** ISO 4217 code the desk's messages carry (default USD); minor units are shown by its exponent. */
  currency: string;
  /** The address the platform calls for this profile; null: none set. */
  publicUrl?: string | null;
  secret: SecretState;
  /** The signing secret being rotated out: verification still accepts it; nothing signs with it. */
  previousSecret: SecretState;
  apiKey: SecretState;
  /** Where the desk reads a user's balance: the money evidence of the conformance check. */
  balance: BalanceProbeView;
}

/** A profile's balance probe: URL and paths in clear, each header value write-only (set + fingerprint). */
export interface BalanceProbeView {
  /** The operator's balance endpoint (GET); `{userId}` stands for the user. null: no probe. */
  url: string | null;
  /** JSONPath to the balance in the probe's answer ($.data.balance); may hold `{userId}`. */
  path: string | null;
  /** How the probe and answers write the balance; null: as the profile writes amounts. */
  units: BalanceUnits | null;
  /** The probe's request headers: names in clear, values (credentials) sealed. */
  headers: Array<{ name: string; value: SecretState }>;
  /** The key header templates sign with ({hmac-sha256-hex:...}): sealed, write-only. */
  hmacKey: SecretState;
  /** JSONPath to the balance in an operator's answer to a callback ($.balance), or null. */
  answerPath: string | null;
}

/** One re-serialization the refusal explainer sent, and what the operator answered. */
export interface RefusalProbe {
  /** 'as-received' (the bytes the operator refused, signed again: is the refusal reproducible?) or a variant id. */
  variant: string;
  label: string;
  /** The outbound exchange that carried it (linked to the refused one by sourceId). */
  exchangeId: number;
  status: number | null;
  error: string | null;
  accepted: boolean;
}

/** Why an operator refused a correctly signed callback, as far as re-serialized sends show it. */
export interface RefusalExplanation {
  sourceId: number;
  /**
   * reserialization: one re-serialization was accepted; accepted-as-sent: the same bytes were accepted now
   * (the refusal was not about the body); none-accepted: every send was refused; unreachable: no answer.
   */
  finding: 'reserialization' | 'accepted-as-sent' | 'none-accepted' | 'unreachable';
  /** The re-serialization the operator accepted, or null. */
  accepted: { variant: string; label: string } | null;
  /** One paragraph a support engineer can pass on. */
  explanation: string;
  probes: RefusalProbe[];
}

/** A balance as the desk read it (exact, in the profile's amounts), or why it could not. */
export type BalanceReading = { kind: 'reading'; value: string; source: 'probe' | 'answer' } | { kind: 'unavailable'; reason: string };

/** One reading of a profile's balance probe (`wager-desk balance`): what setting up a probe is checked with. */
export interface BalanceProbeResult {
  profile: string;
  userId: string;
  /** The amounts the value is written in (integer minor units, or a decimal). */
  amounts: AmountsMode;
  evidence: BalanceReading;
}

export interface SecretState {
  set: boolean;
  /** First 8 hex characters of SHA-256 over the secret; null when unset. */
  fingerprint: string | null;
}

/** What a caller may change. Absent fields stay as they are; null clears. Secrets are write-only. */
export interface ProfileInput {
  name: string;
  operatorUrl?: string | null;
  baseUrl?: string | null;
  operatorId?: string | null;
  upstream?: string | null;
  production?: boolean;
  allowSelfSigned?: boolean;
  /** null goes back to the default, /platform. */
  callbackPrefix?: string | null;
  amounts?: AmountsMode;
  /** ISO 4217 code (EUR, JPY); null goes back to USD. */
  currency?: string | null;
  /** The address the platform calls for this profile (a tunnel's, a host's); null clears. */
  publicUrl?: string | null;
  secret?: string | null;
  /** The signing secret being rotated out (null clears it). */
  previousSecret?: string | null;
  apiKey?: string | null;
  /** The balance probe's URL (GET; may hold {userId}); null clears the probe's URL. */
  balanceUrl?: string | null;
  /** JSONPath into the probe's answer (may hold {userId}); null clears. */
  balancePath?: string | null;
  /** null: as the profile writes amounts. */
  balanceUnits?: BalanceUnits | null;
  /** Replaces every probe header; values are credentials (sealed, write-only); null or [] clears them. */
  balanceHeaders?: Array<[name: string, value: string]> | null;
  /** The key of the probe headers' {hmac-sha256-hex|base64:TEMPLATE} (sealed, write-only); null or '' clears it. */
  balanceHmacKey?: string | null;
  /** JSONPath to the balance in an operator's answer; null clears. */
  answerBalancePath?: string | null;
}
