// The one contract between the desk and its shells. The Electron preload exposes one function per
// method, the web mode serves one POST route per method, and the renderer's api module calls them
// without knowing which transport it has. Every method returns a Result so that errors keep their
// code across IPC (which would otherwise strip an Error to its message).
import type {
  BalanceProbeResult,
  CheckOptions,
  CheckReport,
  CheckReportFormat,
  CheckReportSummary,
  CheckResult,
  DeskStatus,
  DiffEntry,
  Draft,
  EdgeCase,
  EdgeCaseRun,
  ExchangeDeleteReport,
  ExchangeDeletion,
  ExchangeDetail,
  ExchangeEvent,
  ExchangePage,
  ExchangeQuery,
  ExchangeSummary,
  FollowCursor,
  FollowPage,
  HarImportOptions,
  HarImportResult,
  HarQuery,
  ProfileInput,
  ProxyFault,
  ProxyFaultInput,
  ProfileView,
  ProxyConfig,
  RedeliveryFilter,
  RedeliveryProgress,
  RedeliveryReport,
  RedeliveryRequest,
  RedeliverySelection,
  PruneOptions,
  PruneReport,
  RefusalExplanation,
  ReplayRequest,
  Result,
  ResultValue,
  ReverifyReport,
  ReverifyRequest,
  SandboxState,
  SendOptions,
  SaveRequestInput,
  SavedImport,
  SavedRequest,
  SendRequest,
  SignatureReport,
  SigningSecretChoice,
  SignatureMode,
  TemplateKind,
  Timeline,
  TokenRequest,
  TokenResult,
} from './model';

export interface DeskApi {
  // status and proxy
  getStatus(): Promise<Result<DeskStatus>>;
  /** Starts (or restarts) the proxy: what `config` leaves out stays as the last start set it. */
  startProxy(config: Partial<ProxyConfig>): Promise<Result<DeskStatus>>;
  stopProxy(): Promise<Result<DeskStatus>>;

  // the exchange log
  listExchanges(query: ExchangeQuery): Promise<Result<ExchangePage>>;
  getExchange(id: number): Promise<Result<ExchangeDetail>>;
  /** The deposit's story under the named profile (else the active one): a deposit id under two profiles is two deposits. */
  getTimeline(depositId: string, profile?: string): Promise<Result<Timeline>>;
  diffExchanges(beforeId: number, afterId: number): Promise<Result<DiffEntry[]>>;
  /** Deletes old exchanges (by age, count or both) in one transaction, and compacts the file. */
  prune(options: PruneOptions): Promise<Result<PruneReport>>;
  /** Deletes the selected exchanges, or the rows a filter matches, in one transaction (dryRun: only counts them); a status event carries the new counts. */
  deleteExchanges(target: ExchangeDeletion, options?: { dryRun?: boolean }): Promise<Result<ExchangeDeleteReport>>;
  /** What was recorded or completed since the cursor: how another process follows the log (`tail`). */
  followExchanges(cursor: FollowCursor): Promise<Result<FollowPage>>;
  /** Judges the selected captures' signatures again with the profile's secrets now; each changed row is announced. */
  reverify(request: ReverifyRequest): Promise<Result<ReverifyReport>>;

  // signatures of bytes the caller holds
  /** The x-server-authorization value for the body (base64), with the chosen secret. */
  signBody(bodyBase64: string, secret: SigningSecretChoice): Promise<Result<string>>;
  /** The verdict on a signature of the body (base64), and on a mismatch the diagnosis. */
  verifySignature(bodyBase64: string, signature: string, secret: SigningSecretChoice): Promise<Result<SignatureReport>>;

  // compose, replay, send
  /** Saves the draft under a name in a profile (default: the active one); the signature is computed at send time. */
  saveRequest(input: SaveRequestInput): Promise<Result<SavedRequest>>;
  /** A profile's saved requests, by name. */
  listSavedRequests(profile?: string): Promise<Result<SavedRequest[]>>;
  removeSavedRequest(name: string, profile?: string): Promise<Result<null>>;
  /** A profile's saved requests as the file a team keeps (pretty JSON, stable order). */
  exportSavedRequests(profile?: string): Promise<Result<string>>;
  /**
   * Reads such a file into a profile (a request of the same name is replaced); all or nothing. Each path
   * is moved from the prefix it was saved under to the profile's callback prefix (saved/retarget.ts).
   */
  importSavedRequests(fileText: string, profile?: string): Promise<Result<SavedImport>>;
  draftFromExchange(id: number): Promise<Result<Draft>>;
  draftFollowUp(payId: number, result: ResultValue): Promise<Result<Draft>>;
  /** A fresh message under the profile's callback prefix and amounts (options: another profile, or this run's prefix and amounts). */
  draftTemplate(kind: TemplateKind, userId?: string, options?: Pick<SendOptions, 'profile' | 'callbackPrefix' | 'amounts'>): Promise<Result<Draft>>;
  /** The x-server-authorization value the send would carry (null: none), without sending. */
  previewSignature(draft: Draft, mode: SignatureMode, options: SendOptions): Promise<Result<string | null>>;
  inspectDraft(draft: Draft): Promise<Result<import('./model').Finding[]>>;
  replay(request: ReplayRequest): Promise<Result<ExchangeDetail>>;
  /**
   * Why the operator refused a correctly signed callback: sends the same message re-serialized the common
   * ways, each signed over what it sends, and names the one the operator accepts. Sends traffic: on demand only.
   */
  explainRefusal(exchangeId: number, options?: { profile?: string; confirmedProduction?: boolean }): Promise<Result<RefusalExplanation>>;
  send(request: SendRequest): Promise<Result<ExchangeDetail>>;
  curlFor(id: number): Promise<Result<string>>;
  curlForDraft(draft: Draft, options: SendOptions): Promise<Result<string>>;

  // edge cases and conformance
  listEdgeCases(): Promise<Result<EdgeCase[]>>;
  runEdgeCase(caseId: string, options: SendOptions & { userId?: string; concurrency?: number }): Promise<Result<EdgeCaseRun>>;
  /** customSecret: sign this run with a secret that is not stored (the CLI's --secret-env); default: the profile's. */
  runCheck(options: CheckOptions): Promise<Result<CheckReport>>;
  listCheckReports(): Promise<Result<CheckReportSummary[]>>;
  getCheckReport(id: number): Promise<Result<CheckReport>>;
  exportCheckReport(id: number, format: CheckReportFormat): Promise<Result<string>>;

  // tokens
  requestToken(request: TokenRequest): Promise<Result<TokenResult>>;
  listTokenHistory(limit?: number): Promise<Result<ExchangeSummary[]>>;

  // profiles (secrets are write-only: views carry only set/unset and a fingerprint)
  listProfiles(): Promise<Result<ProfileView[]>>;
  saveProfile(input: ProfileInput): Promise<Result<ProfileView>>;
  duplicateProfile(name: string, newName: string): Promise<Result<ProfileView>>;
  useProfile(name: string): Promise<Result<ProfileView>>;
  removeProfile(name: string): Promise<Result<null>>;
  /** Reads a user's balance once through the profile's balance probe (default: the active profile). */
  readBalance(userId: string, profile?: string): Promise<Result<BalanceProbeResult>>;

  // sandbox operator
  getSandboxState(): Promise<Result<SandboxState>>;
  setSandboxBalance(userId: string, balance: number): Promise<Result<SandboxState>>;
  /** The balance a user the sandbox has not seen yet starts with. */
  setSandboxStartingBalance(balance: number): Promise<Result<SandboxState>>;
  resetSandbox(): Promise<Result<SandboxState>>;
  /** The faults the capture proxy applies to callbacks (sandbox and forward mode), spent ones included. */
  listFaults(): Promise<Result<ProxyFault[]>>;
  /** Adds a fault; a running proxy (this process or another) applies it from the next callback. */
  addFault(input: ProxyFaultInput): Promise<Result<ProxyFault>>;
  /** Removes every fault; the value is how many there were. */
  clearFaults(): Promise<Result<number>>;

  // ecosystem
  exportHar(query: HarQuery): Promise<Result<string>>;
  importHar(text: string, options: HarImportOptions): Promise<Result<HarImportResult>>;
  ticketBundle(depositId: string, profile?: string): Promise<Result<string>>;

  // redelivery of captured callbacks
  /** What a redelivery with this filter would send now: the count, and a preview page (oldest first; default 50 rows). */
  selectRedelivery(filter: RedeliveryFilter, options?: { limit?: number; afterId?: number }): Promise<Result<RedeliverySelection>>;
  /** Sends the selection again, paced, emitting redeliver-progress; resolves with the report when the run ends. */
  redeliver(request: RedeliveryRequest): Promise<Result<RedeliveryReport>>;
  /** Stops a running redelivery after the send in flight (false: no such run). */
  stopRedelivery(runId: string): Promise<Result<boolean>>;
}

/** The method names, as a runtime list: the IPC adapter, the preload and the web routes are built from it. */
export const DESK_METHODS = [
  'getStatus',
  'startProxy',
  'stopProxy',
  'listExchanges',
  'getExchange',
  'getTimeline',
  'diffExchanges',
  'prune',
  'deleteExchanges',
  'followExchanges',
  'reverify',
  'signBody',
  'verifySignature',
  'draftFromExchange',
  'draftFollowUp',
  'draftTemplate',
  'previewSignature',
  'inspectDraft',
  'replay',
  'explainRefusal',
  'send',
  'curlFor',
  'curlForDraft',
  'listEdgeCases',
  'runEdgeCase',
  'runCheck',
  'listCheckReports',
  'getCheckReport',
  'exportCheckReport',
  'requestToken',
  'listTokenHistory',
  'listProfiles',
  'saveProfile',
  'duplicateProfile',
  'useProfile',
  'removeProfile',
  'saveRequest',
  'listSavedRequests',
  'removeSavedRequest',
  'exportSavedRequests',
  'importSavedRequests',
  'readBalance',
  'getSandboxState',
  'setSandboxBalance',
  'setSandboxStartingBalance',
  'resetSandbox',
  'listFaults',
  'addFault',
  'clearFaults',
  'exportHar',
  'importHar',
  'ticketBundle',
  'selectRedelivery',
  'redeliver',
  'stopRedelivery',
] as const satisfies ReadonlyArray<keyof DeskApi>;

export type DeskMethod = (typeof DESK_METHODS)[number];

// A compile-time proof that DESK_METHODS lists every method of DeskApi (and nothing else).
type Missing = Exclude<keyof DeskApi, DeskMethod>;
const everyMethodListed: Missing extends never ? true : Missing = true;
void everyMethodListed;

/** Events the desk pushes to the UI. */
export interface DeskEvents {
  /** A new or updated exchange row. */
  exchange: ExchangeEvent;
  status: DeskStatus;
  /** One check finished during a conformance run. */
  'check-progress': {
    runKey: string;
    index: number;
    total: number;
    result: CheckResult;
    /** A problem with the whole run, once known (said before the lines). */ headline?: string;
    /** With the first result: what the run needs and what the user has ("this run needs at most N; the user has M"). */
    budget?: string;
  };
  /** A redelivery run started, sent one capture, or ended (then it carries the report). */
  'redeliver-progress': RedeliveryProgress;
  /** The profiles changed where this desk did not change them (a team's database, read anew): their names now. */
  profiles: { names: string[] };
}

export type DeskEventName = keyof DeskEvents;
export const DESK_EVENTS = ['exchange', 'status', 'check-progress', 'redeliver-progress', 'profiles'] as const satisfies ReadonlyArray<DeskEventName>;

export type DeskEventListener = <K extends DeskEventName>(name: K, payload: DeskEvents[K]) => void;

/** The part of a desk that emits events (what the IPC adapter and the web mode's event stream forward). */
export interface DeskEventSource {
  on(listener: DeskEventListener): () => void;
}
