// Which secret signs or verifies a body the caller holds: the CLI's sign and verify.
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.
import type { ProxySecret } from './proxy';

/** Which secret signs or verifies a body the caller holds (the CLI's sign and verify). */
export interface SigningSecretChoice {
  /** This profile's secret (default: the active profile's). */
  profile?: string;
  /** This secret instead of a profile's (the CLI's --secret-env); never stored. */
  secret?: ProxySecret;
}
