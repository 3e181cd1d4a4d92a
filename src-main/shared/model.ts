// The data the desk hands to its shells (Electron IPC, web mode, CLI).
// Pure types: no node:*, no electron, no DOM. Everything here is JSON-serializable,
// so the same values travel over IPC and HTTP unchanged.

/** Request and response headers, in the order they were received or sent. */
export type HeaderList = Array<[name: string, value: string]>;

export type Direction = 'inbound' | 'outbound';

/** What an exchange carried: the two callbacks, a token request, or anything else. */
export type ExchangeKind = 'pay' | 'results' | 'token' | 'other';

/** Where an exchange came from. */
export type ExchangeOrigin = 'proxy' | 'replay' | 'send' | 'edge-case' | 'check' | 'token' | 'har-import';

export type Verdict = 'valid' | 'mismatch' | 'missing' | 'malformed' | 'no-secret';
export const VERDICTS: readonly Verdict[] = ['valid', 'mismatch', 'missing', 'malformed', 'no-secret'];

export type ResultValue = 'WIN' | 'DRAW' | 'LOSE' | 'REFUND';
export const RESULT_VALUES: readonly ResultValue[] = ['WIN', 'DRAW', 'LOSE', 'REFUND'];

/** The header that carries a callback's signature (spec 5.1); the UI marks it wherever headers show. */
export const SIGNATURE_HEADER = 'x-server-authorization';

/** The userId of hand-crafted callbacks, edge cases and checks when none is given: recognisably the desk's. */
export const DEFAULT_TEST_USER = 'wd-test-user';

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
  /** Why there is no response (refused, timeout, ...), or null. */
  error: string | null;
  durationMs: number | null;
  sourceId: number | null;
  /** The body was cut at the size limit. */
  truncated: boolean;
  /** Count of error-level findings, so lists can flag a bad message without loading it. */
  errorCount: number;
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
  completedAt: string | null;
  /** Free-form labels (for example the HAR file an entry was imported from, or the check run id). */
  tags: string[];
  /** Exchanges derived from this one (replays, follow-ups). */
  derivedIds: number[];
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
  /** Prefix search over depositId and userId. */
  search?: string;
  /** Keyset paging: rows with id < beforeId. */
  beforeId?: number;
  /** Default 100, at most 1000. */
  limit?: number;
}

export interface ExchangePage {
  items: ExchangeSummary[];
  /** Pass as beforeId for the next page; null at the end. */
  nextBeforeId: number | null;
}

export type TimelineFlag = 'duplicate-pay' | 'duplicate-results' | 'results-without-pay' | 'conflicting-outcomes';

export interface Timeline {
  depositId: string;
  entries: ExchangeSummary[];
  flags: Array<{ flag: TimelineFlag; message: string; exchangeIds: number[] }>;
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
  secret: SecretState;
  apiKey: SecretState;
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
  secret?: string | null;
  apiKey?: string | null;
}

// ---------------------------------------------------------------- proxy

/** What a proxy start may choose; body limit and upstream timeout are the desk's options (docs/LIMITS.md). */
export interface ProxyConfig {
  host: string;
  port: number;
  /** Forward target; null means the sandbox operator answers. */
  upstream: string | null;
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
  /** Requests recorded without a verdict because judging them failed (a bug), since the proxy started. */
  unjudged: number;
}

export interface DeskStatus {
  proxy: ProxyStatus;
  activeProfile: string | null;
  counts: { inbound: number; outbound: number };
  dataDir: string;
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
}

export interface EdgeCaseRun {
  caseId: string;
  pass: boolean | null;
  expected: string;
  exchangeIds: number[];
  summary: string;
}

// ---------------------------------------------------------------- conformance check

export interface CheckOptions {
  to?: string;
  userId: string;
  profile?: string;
  confirmedProduction?: boolean;
  /** A secret for this run only (the CLI's --secret-env); never stored. */
  customSecret?: string;
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
}

export interface CheckReport {
  id: number;
  /** The run's id: its exchanges are tagged check:<runId> and its depositIds start with wd-check-<runId>-. */
  runId?: string;
  at: string;
  target: string;
  userId: string;
  passed: number;
  failed: number;
  notObservable: number;
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

// ---------------------------------------------------------------- tokens

export interface TokenRequest {
  userId: string;
  displayName: string;
  profile?: string;
  baseUrl?: string;
  operatorId?: string;
  /** Only from the CLI (read from an environment variable); never stored. */
  apiKey?: string;
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

// ---------------------------------------------------------------- ecosystem: HAR

/** The exchanges of a HAR export: a capture query, or the exchanges of one conformance report. */
export type HarQuery = ExchangeQuery & { reportId?: number };

export interface HarImportOptions {
  /** The profile whose secret verifies the signatures; default: the active one. */
  profile?: string;
  /** Where the HAR came from (a file name): kept as a tag on every entry. */
  origin?: string;
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
