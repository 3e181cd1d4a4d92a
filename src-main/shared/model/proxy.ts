// The capture proxy: its configuration and limits, its status and the callback URLs it serves, and the desk's status event.
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.
import type { ExchangeSummary } from './exchanges';

/** What a proxy start may choose; body limit and upstream timeout are the desk's options (docs/LIMITS.md). */
/** The proxy's limits (docs/LIMITS.md): body size, timeouts, header size. */
export interface ProxyLimits {
  /** Largest request body kept; beyond it 413. */
  maxBodyBytes: number;
  /** How long the upstream may take; beyond it 504. */
  upstreamTimeoutMs: number;
  /** Time allowed to receive the request headers. */
  headersTimeoutMs: number;
  /** Time allowed to receive the whole request, body included: a slow client is cut off with 408. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** Largest header block accepted (431 beyond). */
  maxHeaderBytes: number;
  /** Time allowed for a TLS handshake (HTTPS only): a stalled one is closed and recorded. */
  tlsHandshakeTimeoutMs: number;
  /** Open connections at most: beyond it the oldest one with no request in flight is closed. */
  maxConnections: number;
}

/** A secret to verify with instead of any profile's (the CLI's `serve --secret-env`): kept in memory only, never returned. */
export interface ProxySecret {
  /** What the status and diagnoses call it, e.g. "--secret-env NAME". */
  label: string;
  secret: string;
}

/**
 * The proxy's whole configuration. A start takes a part of it: what it leaves out stays as the last start
 * set it (or at its default), so a restart from the UI changes only what the user changed.
 */
export interface ProxyConfig extends ProxyLimits {
  host: string;
  port: number;
  /** Forward target; null means the sandbox operator answers; absent: the profile's upstream. */
  upstream: string | null;
  /** Verify with this profile's secret and use its upstream; null: the active profile, looked up per request. */
  profile: string | null;
  /** Verify with this secret instead of any profile's; null: the profile's. */
  secret: ProxySecret | null;
  /** The callback prefix to judge captures by for this run; null: the active profile's. */
  callbackPrefix: string | null;
  /** HTTPS instead of HTTP; null: plain HTTP. */
  tls: ProxyTls | null;
  /** The address the platform calls (a tunnel's, a host's); null: the profile's, else the proxy's own URL. */
  publicUrl: string | null;
}

/**
 * How the proxy gets its certificate: PEM files the user has, or one the desk makes for the given host
 * names and addresses and keeps in its data directory (made again only when the hosts change or it expires).
 */
export type ProxyTls = { certFile: string; keyFile: string } | { selfSigned: string[] };

/** The certificate the proxy serves: what a client needs to trust it. */
export interface ProxyTlsStatus {
  source: 'files' | 'self-signed';
  certFile: string;
  /** SHA-256 of the certificate (DER), colon-separated uppercase hex, as browsers and openssl print it. */
  fingerprint256: string;
  /** The names and addresses it covers. */
  hosts: string[];
  /** ISO time it expires. */
  validTo: string;
}

/** The callback URLs to configure in the platform. */
export interface CallbackUrls {
  /** Where they come from: the public URL set for the proxy or the profile, else the proxy's own address. */
  base: string;
  pay: string;
  results: string;
}

export interface ProxyStatus {
  running: boolean;
  /** http://HOST:PORT when running. */
  url: string | null;
  host: string;
  port: number | null;
  mode: 'forward' | 'sandbox';
  upstream: string | null;
  /** A warning to show, for example when listening beyond loopback. */
  warning: string | null;
  /** The limits in force (running), or those a start would use (stopped). */
  limits?: ProxyLimits;
  /** The label of the in-memory secret the proxy verifies with (ProxyConfig.secret); null: the profile's. */
  secretSource?: string | null;
  /** Requests recorded without a verdict because judging them failed (a bug), since the proxy started. */
  unjudged: number;
  /** The certificate served (running over HTTPS), else absent. */
  tls?: ProxyTlsStatus | null;
  /** The public URL in force (the start's, else the profile's); null: none set. */
  publicUrl?: string | null;
  /** Where the public URL comes from: the proxy's own setting (serve --public-url, the proxy panel) or the profile. */
  publicUrlSource?: 'proxy' | 'profile' | null;
  /** The URLs to configure in the platform (running, or what a start would use when a public URL is set). */
  callbackUrls?: CallbackUrls | null;
  /**
   * Every profile the proxy serves (one per callback prefix) and its callback URLs, the primary (named or
   * active) first; profile null: a desk without profiles. Present where callbackUrls is.
   */
  profileCallbackUrls?: ProfileCallbackUrls[] | null;
}

export interface ProfileCallbackUrls extends CallbackUrls {
  profile: string | null;
}

/**
 * Where the key that seals stored secrets comes from: never the key itself. `default-file` is
 * `<data dir>/secrets.key`, made on first need; `given-file` a key file named by the CLI's `--key-file` (or
 * DeskOptions.keyFile) or WAGER_DESK_KEY_FILE, which the desk never makes or changes; `environment` the
 * key itself in WAGER_DESK_KEY.
 */
export interface SecretsKeySource {
  from: 'default-file' | 'given-file' | 'environment';
  /** The key file; null when the key comes from the environment. */
  file: string | null;
  /** What named the source: `--key-file`, `WAGER_DESK_KEY_FILE` or `WAGER_DESK_KEY`; null for the default file. */
  namedBy: '--key-file' | 'WAGER_DESK_KEY_FILE' | 'WAGER_DESK_KEY' | null;
}

export interface DeskStatus {
  proxy: ProxyStatus;
  /** Where the key that seals stored secrets comes from. */
  secretsKey: SecretsKeySource;
  /** Why the stored secrets cannot be opened (a lost, replaced, foreign or malformed key), in one line; null when they can. */
  secretsKeyProblem: string | null;
  activeProfile: string | null;
  counts: { inbound: number; outbound: number };
  dataDir: string;
  /** Where the exchange log is when it is not the data directory's SQLite file: a team's PostgreSQL, named without its password. */
  exchangeLog?: string;
  /** Why that exchange log cannot be read now (the counts are then the last ones read); absent when it can. */
  exchangeLogProblem?: string;
}

/** One row written or changed by a commit, with the log's counts after that commit (what the status bar shows). */
export interface ExchangeEvent {
  exchange: ExchangeSummary;
  counts: DeskStatus['counts'];
}
