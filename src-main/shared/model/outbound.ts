// Outbound requests: replay, send, saved requests, edge cases.
// Pure types and constants, JSON-serializable: the same values travel over IPC and HTTP.
import type { CheckOutcome, CheckResult, CheckRule } from './checks';
import type { AmountsMode, HeaderList, ResultValue } from './exchanges';

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
