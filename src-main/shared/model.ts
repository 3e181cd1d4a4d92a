// The data the desk hands to its shells (Electron IPC, web mode, CLI).
// Pure types: no node:*, no electron, no DOM. Everything here is JSON-serializable,
// so the same values travel over IPC and HTTP unchanged.

/** Request and response headers, in the order they were received or sent. */
export type HeaderList = Array<[name: string, value: string]>;

export type Direction = 'inbound' | 'outbound';

/** What an exchange carried: the two callbacks, a token request, or anything else. */
export type ExchangeKind = 'pay' | 'results' | 'token' | 'other';

/** Where an exchange came from. */
export type ExchangeOrigin = 'proxy' | 'replay' | 'send' | 'edge-case' | 'check' | 'token' | 'har-import' | 'redeliver';

export type Verdict = 'valid' | 'mismatch' | 'missing' | 'malformed' | 'no-secret';
export const VERDICTS: readonly Verdict[] = ['valid', 'mismatch', 'missing', 'malformed', 'no-secret'];

export type ResultValue = 'WIN' | 'DRAW' | 'LOSE' | 'REFUND';
export const RESULT_VALUES: readonly ResultValue[] = ['WIN', 'DRAW', 'LOSE', 'REFUND'];

/** The header that carries a callback's signature (spec 5.1); the UI marks it wherever headers show. */
export const SIGNATURE_HEADER = 'x-server-authorization';

/** The userId of hand-crafted callbacks, edge cases and checks when none is given: recognisably the desk's. */
export const DEFAULT_TEST_USER = 'wd-test-user';

/**
 * How an operator writes amounts: 'integer' in minor units (cents; the common case, an INTEGER column),
 * or 'decimal' (a JSON number with a fraction). Every amount the desk invents follows the profile's choice.
 */
export type AmountsMode = 'integer' | 'decimal';
export const AMOUNTS_MODES: readonly AmountsMode[] = ['integer', 'decimal'];

/** How a balance probe (or an answer) writes a balance: integer minor units (1050) or major units (10.50). */
export type BalanceUnits = 'minor' | 'major';
export const BALANCE_UNITS: readonly BalanceUnits[] = ['minor', 'major'];

export type GameId = 'solitaire' | 'blocks' | 'blackjack';
export const GAME_IDS: readonly GameId[] = ['solitaire', 'blocks', 'blackjack'];

export type FindingLevel = 'error' | 'warning' | 'info';

/** One observation about a message, at a JSON path ('$' for the whole body, '$.amount' for a field). */
export interface Finding {
  level: FindingLevel;
  path: string;
  message: string;
}

/** Why a signature did not match: what the sender most likely signed instead. */
export interface Diagnosis {
  /** One sentence for a support person, e.g. "Signed over the compact re-serialization of the body". */
  summary: string;
  /** The variant that reproduces the received signature, or null when none does. */
  match: DiagnosisMatch | null;
  /** Labels of every variant tried, in order. */
  tried: string[];
}

export interface DiagnosisMatch {
  /** Stable identifier of the variant: 'other-secret', 'compact-json', 'pretty-2', 'pretty-4', 'trailing-newline-added', ... */
  variant: string;
  /** Human label of the variant. */
  label: string;
  /** When the match used another stored secret: the profile that holds it. */
  profile?: string;
}

export interface SignatureReport {
  /** null where no signature applies (a token request, say). */
  verdict: Verdict | null;
  notes: string[];
  diagnosis: Diagnosis | null;
  /** Which of the profile's secrets a valid signature matched; absent when not known (or not valid). */
  secret?: 'current' | 'previous';
}

/** The key fields of a callback, parsed once and kept as indexed columns. */
export interface KeyFields {
  depositId: string | null;
  userId: string | null;
  result: string | null;
  gameId: string | null;
  amount: number | null;
  currency: string | null;
  tournamentId: string | null;
}

/**
 * Who made an exchange's answer: the operator (relayed from its upstream, or the sandbox standing in
 * for it; for what the desk sends, its target) or the desk itself, in the operator's place.
 */
export type AnsweredBy = 'operator' | 'desk';

/** One row of the exchange log, as lists show it. */
export interface ExchangeSummary extends KeyFields {
  id: number;
  direction: Direction;
  kind: ExchangeKind;
  origin: ExchangeOrigin;
  /** ISO 8601 time the request started. */
  at: string;
  method: string;
  path: string;
  /** Full target URL of an outbound exchange; null for inbound. */
  target: string | null;
  signature: { verdict: Verdict | null };
  response: { status: number } | null;
  /** Why there is no response (refused, timeout, ...), or why the desk answered itself, or null. */
  error: string | null;
  /** Who answered; null while there is no answer (pending, the client left, nothing came back). */
  answeredBy: AnsweredBy | null;
  /** When the desk answered (or withheld the answer) itself: why, in words (a fault, an unreachable upstream, a refusal). */
  deskCause: string | null;
  durationMs: number | null;
  sourceId: number | null;
  /** The body was cut at the size limit. */
  truncated: boolean;
  /** Count of error-level findings, so lists can flag a bad message without loading it. */
  errorCount: number;
  /** The profile (operator) it belongs to: whose callback prefix received it, or used to send it; null: unassigned. */
  profile: string | null;
}

export interface RequestRecord {
  method: string;
  path: string;
  /** Query string without the '?', or '' */
  query: string;
  headers: HeaderList;
  bodyBase64: string;
  /** Bytes received (may exceed the stored bytes when truncated). */
  size: number;
  truncated: boolean;
}

export interface ResponseRecord {
  status: number;
  headers: HeaderList;
  bodyBase64: string;
}

/** One exchange, whole. */
export interface ExchangeDetail extends Omit<ExchangeSummary, 'signature' | 'response'> {
  request: RequestRecord;
  response: ResponseRecord | null;
  signature: SignatureReport;
  findings: Finding[];
  remoteAddress: string | null;
  /** How a captured request arrived ('http' or 'https'); null when not known (older rows, imports, outbound). */
  scheme?: 'http' | 'https' | null;
  completedAt: string | null;
  /** Free-form labels (for example the HAR file an entry was imported from, or the check run id). */
  tags: string[];
  /** Exchanges derived from this one (replays, follow-ups). */
  derivedIds: number[];
  /** When the signature was judged again with a profile's secrets after it was recorded; null: never. */
  reverified?: Reverification | null;
}

/** The last time a capture's signature was judged again. */
export interface Reverification {
  /** ISO time. */
  at: string;
  /** The profile whose secrets judged it, and its current secret's fingerprint (never the secret). */
  profile: string;
  fingerprint: string | null;
  /** The verdict the capture was first recorded with. */
  originalVerdict: Verdict | null;
}

/** Which captures to judge again: the list's filters (or explicit ids), and the profile whose secrets judge. */
export interface ReverifyRequest {
  query?: Omit<ExchangeQuery, 'beforeId' | 'limit'>;
  /** Only these exchanges (still narrowed by the query). */
  ids?: number[];
  /** Default: the active profile. */
  profile?: string;
}

/** Where a follower of the log stands: the last row it read, and the rows it saw still in flight. */
export interface FollowCursor {
  /** Rows after this id are new; null: start now (the answer's afterId is the newest row). */
  afterId: number | null;
  /** Rows read while in flight, to look at again until they complete. */
  pendingIds?: number[];
  /** The list's filters; default: inbound captures. */
  query?: Omit<ExchangeQuery, 'beforeId' | 'limit'>;
}

export interface FollowPage {
  /** Rows that completed since the last call (new ones, and pending ones that got their answer), in id order. */
  completed: ExchangeSummary[];
  /** Ids of rows recorded and not answered yet: pass them back as pendingIds. */
  pending: number[];
  /** Pass back as afterId. */
  afterId: number;
  /** More new rows are waiting: call again at once. */
  more: boolean;
}

export interface ReverifyReport {
  /** Rows the filters selected that carry a signature to judge. */
  judged: number;
  /** Rows whose verdict changed. */
  changed: number;
  /** Verdicts after, by verdict. */
  verdicts: Partial<Record<Verdict, number>>;
  /** Ids whose verdict changed (at most the first 1000). */
  changedIds: number[];
  at: string;
  profile: string;
  fingerprint: string | null;
}

/** Filters for the exchange log. All optional; combined with AND. */
export interface ExchangeQuery {
  /** Default: inbound only (captured callbacks). */
  direction?: Direction | 'all';
  kind?: ExchangeKind;
  result?: string;
  verdict?: Verdict;
  depositId?: string;
  userId?: string;
  /**
   * Text anywhere in the stored request and answer (path, query, header names and values, bodies; case
   * does not matter), three characters or more; a shorter one is a prefix of the depositId or userId.
   */
  search?: string;
  /** Keyset paging: rows with id < beforeId. */
  beforeId?: number;
  /** Default 100, at most 1000. */
  limit?: number;
  /** Only this profile's rows. Through the desk, default: the active profile's (every row when there is no profile). */
  profile?: string;
  /** Every profile's rows, unassigned ones too (wins over profile). */
  allProfiles?: boolean;
}

export interface ExchangePage {
  items: ExchangeSummary[];
  /** Pass as beforeId for the next page; null at the end. */
  nextBeforeId: number | null;
  /**
   * Set when the read ran out of its time budget (a search over a large log): the items are what it
   * found by then, and the shells say `stopped after N s`. Absent: the page is complete.
   */
  stoppedAfterSeconds?: number;
}

export type TimelineFlag =
  | 'duplicate-pay'
  | 'duplicate-results'
  | 'results-without-pay'
  | 'conflicting-outcomes'
  /** A WIN or DRAW and a REFUND for the same deposit. */
  | 'credit-and-refund'
  /** A REFUND or DRAW whose amount (or any credit whose currency) differs from the pay's. */
  | 'amount-differs'
  /** A pay sent again with other fields (amount, currency, userId...). */
  | 'pay-changed'
  /** The operator answered 2XX to a callback whose signature does not match, is missing or is malformed. */
  | 'accepted-bad-signature';

export interface Timeline {
  depositId: string;
  /** The profile whose deposit this is (a deposit id under two profiles is two deposits); null: unassigned rows. */
  profile: string | null;
  entries: ExchangeSummary[];
  flags: Array<{ flag: TimelineFlag; message: string; exchangeIds: number[] }>;
  /**
   * With no entries: the other profiles (null: unassigned rows) whose exchanges name this deposit, so the
   * view says whose it is instead of "nothing unusual". Set by the desk; absent: none, or not looked up.
   */
  otherProfiles?: Array<string | null>;
}

// ---------------------------------------------------------------- profiles

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

// ---------------------------------------------------------------- proxy

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

// ---------------------------------------------------------------- retention

/** Which exchanges to delete: these ids, or every row the filter matches (its beforeId and limit are ignored). */
/** The selection, or a filter's rows; upToId: only rows up to that id (those a dry run counted, not later ones). */
export type ExchangeDeletion = { ids: number[] } | { filter: ExchangeQuery; upToId?: number };

export interface ExchangeDeleteReport {
  /** Rows deleted, or with dryRun the rows that would be. */
  deleted: number;
  /** The highest id among them (null: none): pass it as upToId to delete exactly the rows a dry run counted. */
  lastId: number | null;
  dryRun: boolean;
  /** The log's counts after the delete. */
  counts: DeskStatus['counts'];
}

export interface PruneOptions {
  /** Delete exchanges whose request started more than this many days ago (fractions allowed). */
  olderThanDays?: number;
  /** Keep only the newest N exchanges (newest by id: the order the desk recorded them). */
  keep?: number;
  /** Rebuild the file with VACUUM, returning every free page to the file system. */
  vacuum?: boolean;
}

export interface PruneReport {
  /** Exchanges deleted. */
  deleted: number;
  /** Exchanges left. */
  remaining: number;
  /** Kept exchanges whose source was deleted: their sourceId is now null. */
  detached: number;
  /** The ISO time before which exchanges were deleted, when olderThanDays was given. */
  cutoff: string | null;
  vacuumed: boolean;
  /** The WAL was checkpointed and cut to zero bytes (false when another connection was still reading it). */
  walTruncated: boolean;
  /** Database plus WAL, in bytes, before and after. */
  bytesBefore: number;
  bytesAfter: number;
  /** Pages still free inside the file (reused by new rows; `vacuum` returns them to the file system). */
  freePages: number;
}

// ---------------------------------------------------------------- signatures

/** Which secret signs or verifies a body the caller holds (the CLI's sign and verify). */
export interface SigningSecretChoice {
  /** This profile's secret (default: the active profile's). */
  profile?: string;
  /** This secret instead of a profile's (the CLI's --secret-env); never stored. */
  secret?: ProxySecret;
}

// ---------------------------------------------------------------- sandbox operator

export interface SandboxUser {
  userId: string;
  balance: number;
}

export interface SandboxDeposit {
  depositId: string;
  userId: string;
  amount: number;
  currency: string;
  /** null until a results callback settled it. */
  outcome: ResultValue | null;
  paidAt: string;
  settledAt: string | null;
}

export interface SandboxState {
  startingBalance: number;
  users: SandboxUser[];
  deposits: SandboxDeposit[];
}

// ---------------------------------------------------------------- proxy faults

/** What a fault does to a callback: answer this status, wait first, never answer, or cut the connection. */
export type FaultAction =
  | { type: 'status'; status: number; /** The answer's body (JSON text); default: an error in the spec's shape. */ body?: string }
  | { type: 'delay'; ms: number }
  | { type: 'timeout' }
  | { type: 'reset' };

export interface ProxyFaultInput {
  /** Which callbacks it applies to; absent: pay and results alike. */
  path?: 'pay' | 'results';
  action: FaultAction;
  /** Applies to the next N matching requests, then it is spent. */
  count?: number;
  /** Applies to this share (0 < P <= 1) of the matching requests, counted: 0.5 faults every second one. */
  ratio?: number;
}

export interface ProxyFault {
  id: number;
  path: 'pay' | 'results' | null;
  action: FaultAction;
  count: number | null;
  ratio: number | null;
  /** Matching requests seen so far. */
  matched: number;
  /** Of those, the ones it was applied to. */
  applied: number;
  /** True once a counted fault has been applied `count` times. */
  spent: boolean;
  createdAt: string;
}

// ---------------------------------------------------------------- outbound: replay, send, edge cases

export type SignatureMode = 'resign' | 'keep' | 'none' | 'invalid' | 'custom';

/** A request ready to send: what the composer edits. */
export interface Draft {
  method: string;
  /** Path and query appended to the target base, e.g. /platform/pay */
  path: string;
  headers: HeaderList;
  bodyBase64: string;
  /** The exchange this draft came from, if any. */
  sourceId: number | null;
}

export interface SendOptions {
  /** Target base URL; default: the active profile's operator URL. */
  to?: string;
  /** Profile whose secret and operator URL are used; default: the active one. */
  profile?: string;
  signature?: SignatureMode;
  /** The secret to sign with instead of the profile's (modes resign, invalid and custom; custom needs it). Never stored. */
  customSecret?: string;
  /** Set for a production profile after the user confirmed. */
  confirmedProduction?: boolean;
  /** The callback prefix for this run (templates, follow-ups, edge cases); default: the profile's. */
  callbackPrefix?: string;
  /**
   * Header edits of a replay or a send, by name: `drop` removes, then `set` adds or replaces. The
   * x-server-authorization header follows the signature mode unless an edit names it: then it is
   * sent as given (or not at all), with a note.
   */
  headerEdits?: HeaderEdits;
  /** How invented amounts are written for this run; default: the profile's. */
  amounts?: AmountsMode;
}

export interface HeaderEdits {
  set?: HeaderList;
  drop?: string[];
}

export interface ReplayRequest extends SendOptions {
  sourceId: number;
  /** Dotted paths to set; values are JSON values. */
  set?: Array<{ path: string; value: unknown }>;
  unset?: string[];
  /** Replace the body with these bytes; `set`/`unset` then apply to them. */
  bodyBase64?: string;
  /** Send the follow-up result of the captured pay (same deposit) instead of the capture itself; edits apply to it. */
  followUp?: ResultValue;
}

export type TemplateKind = 'pay' | 'win' | 'draw' | 'lose' | 'refund';

/** How a saved request is signed when it is sent (the signature itself is never stored). */
export type SavedSignature = 'resign' | 'invalid' | 'none';

/** A request saved from the composer under a name, in a profile. */
export interface SavedRequest {
  profile: string;
  name: string;
  method: string;
  path: string;
  /** Without the signature header; a stored secret's value is redacted. */
  headers: HeaderList;
  bodyBase64: string;
  signature: SavedSignature;
  savedAt: string;
}

/** What an import did with one request's path: moved under the target profile's callback prefix, or not. */
export interface SavedPathChange {
  /** The request's name, as saved. */
  name: string;
  /** The path as the file has it (a stored secret redacted). */
  from: string;
  /** The path as saved. */
  to: string;
  /** retargeted: `prefix` replaced by the target's; unchanged: already under the target's; kept: under no known prefix. */
  outcome: 'retargeted' | 'unchanged' | 'kept';
  /** The prefix found at the path's start; null when none was. */
  prefix: string | null;
}

/** A saved requests file read into a profile. */
export interface SavedImport {
  profile: string;
  /** The profile's callback prefix: where the requests' paths were moved. */
  callbackPrefix: string;
  requests: SavedRequest[];
  /** One a request, in the order of `requests`. */
  paths: SavedPathChange[];
}

export interface SaveRequestInput {
  name: string;
  /** Default: the active profile. */
  profile?: string;
  draft: Draft;
  signature: SignatureMode;
}

export interface SendRequest extends SendOptions {
  draft: Draft;
}

export interface DiffEntry {
  /** 'body' | 'header' | 'signature' | 'status' | 'response-body' */
  area: string;
  path: string;
  before: unknown;
  after: unknown;
}

export interface EdgeCase {
  id: string;
  title: string;
  /** What it tests, in a sentence. */
  tests: string;
  /** What the spec expects the operator to do. */
  expected: string;
  /** Whether the conformance check can judge it from the operator's answer. */
  checkable: boolean;
  /** The spec rule it tests (a section of docs/operator-interface.md). */
  rule?: CheckRule;
  /** What it sends, step by step. */
  sends?: string[];
}

export interface EdgeCaseRun {
  caseId: string;
  pass: boolean | null;
  /** As a conformance check's: blocked when a step the case depends on did not get the answer it needs. */
  outcome?: CheckOutcome;
  expected: string;
  exchangeIds: number[];
  summary: string;
  /** The case judged as the check judges it: its answer, then its money rule where it has one. */
  checks?: CheckResult[];
}

// ---------------------------------------------------------------- conformance check

export interface CheckOptions {
  to?: string;
  userId: string;
  profile?: string;
  confirmedProduction?: boolean;
  /** A secret for this run only (the CLI's --secret-env); never stored. */
  customSecret?: string;
  /** The callback prefix for this run; default: the profile's. */
  callbackPrefix?: string;
  /** How the run's amounts are written; default: the profile's. */
  amounts?: AmountsMode;
  /** The stake of the run's pays; default 100 on integer profiles (minor units), 1.5 on decimal ones. */
  stake?: number;
  /** How many identical requests the concurrent-duplicate checks send at once; default 5. */
  concurrency?: number;
  /**
   * A balance endpoint of the target for this run only ({userId} in it is the user): with `to` another
   * server than the profile's operator, the profile's probe is never read, and money comes from here
   * or from the answers.
   */
  balanceUrl?: string;
  /** Where the balance is in that endpoint's answer (JSONPath); default: the profile's probe path, else $.balance. */
  balancePath?: string;
}

/** A rule of the spec a check tests: its section of docs/operator-interface.md and its words. */
export interface CheckRule {
  section: string;
  text: string;
  /** Whose rule it is: the spec's (its section quoted) or the desk's advice where the spec says nothing. Absent: the spec's. */
  source?: 'spec' | 'advice';
}

/** What a check judged by: status first, money second, words last. */
export interface CheckEvidence {
  /** The statuses of the judged answers (null: no answer), in the order sent. */
  statuses: Array<number | null>;
  /** The user's balance before and after the judged steps, exact decimal strings in the profile's amounts. */
  balanceBefore?: string | null;
  balanceAfter?: string | null;
  /** After minus before, and what the rule says it must be. */
  delta?: string | null;
  expectedDelta?: string;
  /** Where the readings came from: the balance probe or the operator's answer body. */
  balanceSource?: 'probe' | 'answer';
  /** Words of an answer body the verdict used, quoted. */
  words?: string[];
  /** What the client SDK receives of a refused pay. */
  clientSees?: string;
}

/**
 * pass and fail judge the answer; blocked: a step the check depends on did not get the answer it needs
 * (a pay refused before its WIN, a balance run out), so the check says nothing about the operator either
 * way; not-observable: the interface cannot show it; inconclusive: a variant was refused and so was its
 * control (or its money could not be isolated), both answers quoted, never a fail; warning: the desk's
 * advice, not the spec's rule, was not met (shown and counted, never failing the run).
 */
export type CheckOutcome = 'pass' | 'fail' | 'blocked' | 'not-observable' | 'inconclusive' | 'warning';

/** A check's outcome, also for reports stored before outcomes existed (pass true, false, null). */
export function outcomeOfCheck(c: { pass: boolean | null; outcome?: CheckOutcome }): CheckOutcome {
  return c.outcome ?? (c.pass === true ? 'pass' : c.pass === false ? 'fail' : 'not-observable');
}

export interface CheckResult {
  id: string;
  title: string;
  /** null: not observable through the interface (never counted as passed). */
  pass: boolean | null;
  expected: string;
  actual: { status: number | null; body: string | null; error?: string };
  exchangeIds: number[];
  /** Why it failed, where the status and body alone do not say (e.g. "errors[0].isClientSafe is a string"). */
  reason?: string;
  /** pass: true is 'pass', false is 'fail' or 'blocked', null is 'not-observable'. Absent in reports stored before outcomes existed. */
  outcome?: CheckOutcome;
  /** When blocked: the step it depends on and what that step answered. */
  blockedBy?: { step: string; answer: string };
  /** The spec rule it tests. */
  rule?: CheckRule;
  /** What it sent, one line per step. */
  sent?: string[];
  /** What it observed, in one line. */
  observed?: string;
  evidence?: CheckEvidence;
  /** Not observable: what would make it observable. */
  howToObserve?: string;
}

export interface CheckReport {
  id: number;
  /** The run's id (16 hex digits): its exchanges are tagged check:<runId> and its ids start with wd-<runId>. */
  runId?: string;
  at: string;
  target: string;
  userId: string;
  passed: number;
  failed: number;
  /** Checks whose dependencies did not get the answer they need; absent in reports stored before it existed. */
  blocked?: number;
  notObservable: number;
  /** A problem with the whole run, said first (the target does not serve <prefix>/pay, say). */
  headline?: string;
  /** The callback prefix the run posted to. */
  callbackPrefix?: string;
  /** Whether the run had money evidence (a balance probe or balances in the answers). */
  moneyObserved?: boolean;
  /** How many identical requests the concurrent-duplicate checks sent at once. */
  concurrency?: number;
  /** Why the operator refused a correctly signed callback of the run, when it did (the explainer's probes). */
  refusal?: RefusalExplanation;
  /** Refused variants whose control was refused too: neither passed nor failed. */
  inconclusive?: number;
  /** The desk's advice not met: shown and counted, never failing the run. */
  warnings?: number;
  /** Where the run read money: "balance probe URL", "the balance in the answers at PATH", or that it read none. */
  moneySource?: string;
  /** What the run may spend and what the user had: "this run needs at most N; the user has M". */
  budget?: string;
  checks: CheckResult[];
}

export interface CheckReportSummary {
  id: number;
  at: string;
  target: string;
  userId: string;
  passed: number;
  failed: number;
}

/** The files a stored report is exported as: the report whole, a ticket's Markdown, a CI's JUnit XML, a self-contained page. */
export type CheckReportFormat = 'json' | 'markdown' | 'junit' | 'html';

// ---------------------------------------------------------------- tokens

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

// ---------------------------------------------------------------- redelivery

/** Which captured callbacks a redelivery sends again (inbound pay and results only). Every filter narrows. */
export interface RedeliveryFilter {
  /** Only captures whose forward got no 2XX answer, or no answer at all. */
  failed?: boolean;
  /** ISO 8601, or relative to now: "2h", "30m", "45s", "1d". */
  since?: string;
  until?: string;
  depositId?: string;
  userId?: string;
  kind?: 'pay' | 'results';
  verdict?: Verdict;
  /** Inclusive id ranges ([12, 12] is exchange 12). */
  idRanges?: Array<[number, number]>;
  /** Also captures already redelivered with a 2XX answer (skipped by default, so a stopped run resumes). */
  again?: boolean;
  /**
   * Whose captures: a redelivery selects one profile's only (default: the run's profile, else the active
   * one), and sends them with that profile's secret and operator URL. Ids of another profile's captures are refused.
   */
  profile?: string;
}

export interface RedeliverySelection {
  /** Captures that would be sent. */
  count: number;
  /** Captures that match the filter but were already redelivered with a 2XX answer (0 with `again`). */
  skipped: number;
  /** The first of them in capture order (oldest first), at most the preview limit. */
  items: ExchangeSummary[];
  /** Pass as afterId for the next page of the preview; null at the end. */
  nextAfterId: number | null;
}

export interface RedeliveryRequest {
  filter: RedeliveryFilter;
  /** The run's id, for its progress events and stopRedelivery; default: a new one. */
  runId?: string;
  /** The base URL; default: the profile's operator URL. */
  to?: string;
  profile?: string;
  confirmedProduction?: boolean;
  /** Sends per second at most (default 10). */
  rate?: number;
  /** 'keep' (default): the platform's own signature bytes; 'resign': signed again with the profile's secret. */
  signature?: 'keep' | 'resign';
  /** Stop at the first send without a 2XX answer. */
  stopOnFailure?: boolean;
  /** Re-sign captures whose captured signature was not valid too (refused, and counted, without it). */
  resignInvalid?: boolean;
}

export interface RedeliveryFailure {
  sourceId: number;
  /** The deposit the capture was for, so a failure reads as which payment, not only which row. */
  depositId?: string | null;
  exchangeId: number | null;
  status: number | null;
  error: string | null;
}

export interface RedeliveryReport {
  runId: string;
  at: string;
  target: string;
  signature: 'keep' | 'resign';
  rate: number;
  selected: number;
  sent: number;
  ok: number;
  failed: number;
  skipped: number;
  /** Captures not re-signed because their captured signature was not valid (resign without resignInvalid); counted in skipped too. */
  resignRefused: number;
  /** Whose captures were sent (null: a desk without profiles). */
  profile: string | null;
  /** Why the run ended before the selection did: stopped by the user, or at the first failure. */
  stopped: 'user' | 'failure' | null;
  durationMs: number;
  /** The ids of the first and last redelivered exchanges (null when nothing was sent). */
  firstExchangeId: number | null;
  lastExchangeId: number | null;
  /** The first failures, at most REDELIVERY_FAILURES_KEPT (the report stays small on a long run). */
  failures: RedeliveryFailure[];
}

export const REDELIVERY_FAILURES_KEPT = 100;

export interface RedeliveryProgress {
  runId: string;
  /** Sends done so far, of total. */
  done: number;
  total: number;
  ok: number;
  failed: number;
  /** The send just done (absent on the first event of a run, sent before any send). */
  last?: { sourceId: number; exchangeId: number | null; status: number | null; error: string | null };
  /** The run's report, on its last event. */
  report?: RedeliveryReport;
}

// ---------------------------------------------------------------- ecosystem: HAR

/** The exchanges of a HAR export: a capture query, or the exchanges of one conformance report. */
export type HarQuery = ExchangeQuery & { reportId?: number };

export interface HarImportOptions {
  /** The profile whose secret verifies the signatures; default: the active one. */
  profile?: string;
  /** Where the HAR came from (a file name): kept as a tag on every entry. */
  origin?: string;
  /** The callback prefix to judge the entries by; default: the profile's. */
  callbackPrefix?: string;
}

export interface HarImportResult {
  imported: number;
  ids: number[];
}

// ---------------------------------------------------------------- errors

export type DeskErrorCode =
  | 'bad-input'
  | 'not-found'
  | 'no-secret'
  | 'no-target'
  | 'no-profile'
  | 'needs-confirmation'
  | 'proxy-error'
  | 'io-error'
  /** The caller is not the app's own page (an IPC sender or web request the shell refuses). */
  | 'forbidden'
  | 'internal';

/** Errors cross IPC and HTTP as data: a stable code and a message a person can read. */
export interface DeskError {
  code: DeskErrorCode;
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: DeskError };
