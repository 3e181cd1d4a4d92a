// Test tokens from the platform's create-token endpoint.
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.

export interface TokenRequest {
  userId: string;
  displayName: string;
  profile?: string;
  baseUrl?: string;
  operatorId?: string;
  /** Only from the CLI (read from an environment variable); never stored. */
  apiKey?: string;
  /**
   * The stored API key goes only to the profile's base URL. To send it to another baseUrl, the caller
   * names that URL here (a confirmation, as production sends have), or gives apiKey for the call.
   */
  confirmedBaseUrl?: string;
  /**
   * Accept a self-signed certificate from the token service for this call (the host name is still
   * checked). Never taken from the profile, whose setting is for its operator URL only.
   */
  allowSelfSigned?: boolean;
}

export interface DecodedToken {
  header: Record<string, unknown> | null;
  payload: Record<string, unknown> | null;
  /** ISO dates of exp, iat, nbf where present. */
  dates: { exp?: string; iat?: string; nbf?: string };
  /** Seconds until exp at decode time; negative once expired; null without exp. */
  secondsLeft: number | null;
  /** Always a reminder that the desk cannot verify the platform's signature. */
  note: string;
  error: string | null;
}

export interface TokenResult {
  exchangeId: number;
  status: number | null;
  token: string | null;
  decoded: DecodedToken | null;
  body: string | null;
  error: string | null;
}
