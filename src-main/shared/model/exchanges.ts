// An exchange as the log keeps it: its kind and origin, its signature's verdict and findings, its key fields, the pages and timelines the desk reads.
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.

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
