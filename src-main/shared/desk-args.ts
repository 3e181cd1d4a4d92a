// The arguments of every DeskApi method, as zod schemas: the transports (the IPC adapter and the web
// routes) check a call against them before it reaches the desk, so that a caller that is not the typed
// renderer (the web token's holder, a compromised page) cannot pass a string where a boolean belongs
// ("no" stored as true) or a value that only SQLite would refuse. The schemas check types and shapes;
// the desk still checks meanings (a port's range, a URL's scheme) with its own messages. Objects accept
// keys they do not list, so a field added to the model is not refused before its schema follows.
import { z } from 'zod';
import type { DeskApi, DeskMethod } from './desk-api';
import type { DeskError } from './model';
import { searchProblem } from './search-text';

const text = z.string();
const maybeText = z.string().nullable().optional();
const number = z.number().refine(Number.isFinite, 'expected a finite number');
const id = number;

const amountsMode = z.enum(['integer', 'decimal']);

const headerList = z.array(z.tuple([z.string(), z.string()]));

const draft = z.object({
  method: text,
  path: text,
  headers: headerList,
  bodyBase64: text,
  sourceId: id.nullable().optional(),
});

const sendOptions = z.object({
  to: text.optional(),
  profile: text.optional(),
  signature: text.optional(),
  customSecret: text.optional(),
  confirmedProduction: z.boolean().optional(),
  callbackPrefix: text.optional(),
  amounts: amountsMode.optional(),
  headerEdits: z.object({ set: headerList.optional(), drop: z.array(text).optional() }).optional(),
});

/** A search, bounded before it reaches the store (search-text.ts). */
const search = z.string().superRefine((s, ctx) => {
  const problem = searchProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const exchangeQuery = z.object({
  direction: text.optional(),
  kind: text.optional(),
  result: text.optional(),
  verdict: text.optional(),
  depositId: text.optional(),
  userId: text.optional(),
  search: search.optional(),
  beforeId: id.optional(),
  limit: number.optional(),
  profile: text.optional(),
  allProfiles: z.boolean().optional(),
});

const redeliveryFilter = z.object({
  failed: z.boolean().optional(),
  since: text.optional(),
  until: text.optional(),
  depositId: text.optional(),
  userId: text.optional(),
  kind: text.optional(),
  verdict: text.optional(),
  idRanges: z.array(z.tuple([id, id])).optional(),
  again: z.boolean().optional(),
  profile: text.optional(),
});
const rowFilter = exchangeQuery.omit({ beforeId: true, limit: true });

const secretGiven = z.object({ label: text, secret: text });

const proxyConfig = z.object({
  host: text.optional(),
  port: number.optional(),
  upstream: text.nullable().optional(),
  profile: text.nullable().optional(),
  secret: secretGiven.nullable().optional(),
  callbackPrefix: text.nullable().optional(),
  maxBodyBytes: number.optional(),
  upstreamTimeoutMs: number.optional(),
  headersTimeoutMs: number.optional(),
  requestTimeoutMs: number.optional(),
  keepAliveTimeoutMs: number.optional(),
  maxHeaderBytes: number.optional(),
  tlsHandshakeTimeoutMs: number.optional(),
  maxConnections: number.optional(),
  tls: z
    .union([z.object({ certFile: text, keyFile: text }), z.object({ selfSigned: z.array(text) })])
    .nullable()
    .optional(),
  publicUrl: text.nullable().optional(),
});

const profileInput = z.object({
  name: text,
  operatorUrl: maybeText,
  baseUrl: maybeText,
  operatorId: maybeText,
  upstream: maybeText,
  production: z.boolean().optional(),
  allowSelfSigned: z.boolean().optional(),
  callbackPrefix: maybeText,
  amounts: amountsMode.optional(),
  currency: maybeText,
  publicUrl: maybeText,
  secret: maybeText,
  previousSecret: maybeText,
  apiKey: maybeText,
  balanceUrl: maybeText,
  balancePath: maybeText,
  balanceUnits: z.enum(['minor', 'major']).nullable().optional(),
  balanceHeaders: headerList.nullable().optional(),
  balanceHmacKey: maybeText,
  answerBalancePath: maybeText,
});

const secretChoice = z.object({ profile: text.optional(), secret: secretGiven.optional() });

const faultInput = z.object({
  path: z.enum(['pay', 'results']).optional(),
  action: z.discriminatedUnion('type', [
    z.object({ type: z.literal('status'), status: number, body: text.optional() }),
    z.object({ type: z.literal('delay'), ms: number }),
    z.object({ type: z.literal('timeout') }),
    z.object({ type: z.literal('reset') }),
  ]),
  count: number.optional(),
  ratio: number.optional(),
});

type Arg = readonly [name: string, schema: z.ZodType];
/** One [name, schema] per parameter of the method, in order (the compiler counts them). */
type ArgSpec<P extends readonly unknown[]> = { readonly [I in keyof P]-?: Arg };
type ArgsOf<M extends DeskMethod> = ArgSpec<Parameters<DeskApi[M]>>;

const none = [] as const;

/** The schema of every argument of every DeskApi method; the type makes a missing method or argument a compile error. */
export const DESK_ARGS: { readonly [M in DeskMethod]: ArgsOf<M> } = {
  getStatus: none,
  startProxy: [['config', proxyConfig.optional()]],
  stopProxy: none,
  listExchanges: [['query', exchangeQuery.optional()]],
  getExchange: [['id', id]],
  getTimeline: [
    ['depositId', text],
    ['profile', text.optional()],
  ],
  diffExchanges: [
    ['beforeId', id],
    ['afterId', id],
  ],
  deleteExchanges: [
    ['target', z.union([z.object({ ids: z.array(id) }), z.object({ filter: exchangeQuery, upToId: id.optional() })])],
    ['options', z.object({ dryRun: z.boolean().optional() }).optional()],
  ],
  prune: [['options', z.object({ olderThanDays: number.optional(), keep: number.optional(), vacuum: z.boolean().optional() }).optional()]],
  signBody: [
    ['bodyBase64', text],
    ['secret', secretChoice.optional()],
  ],
  verifySignature: [
    ['bodyBase64', text],
    ['signature', text],
    ['secret', secretChoice.optional()],
  ],
  draftFromExchange: [['id', id]],
  draftFollowUp: [
    ['payId', id],
    ['result', text],
  ],
  draftTemplate: [
    ['kind', text],
    ['userId', text.optional()],
    ['options', z.object({ profile: text.optional(), callbackPrefix: text.optional(), amounts: amountsMode.optional() }).optional()],
  ],
  previewSignature: [
    ['draft', draft],
    ['mode', text],
    ['options', sendOptions.optional()],
  ],
  inspectDraft: [['draft', draft]],
  replay: [
    [
      'request',
      sendOptions.extend({
        sourceId: id,
        set: z.array(z.object({ path: text, value: z.unknown() })).optional(),
        unset: z.array(text).optional(),
        followUp: text.optional(),
      }),
    ],
  ],
  send: [['request', sendOptions.extend({ draft })]],
  curlFor: [['id', id]],
  curlForDraft: [
    ['draft', draft],
    ['options', sendOptions.optional()],
  ],
  listEdgeCases: none,
  runEdgeCase: [
    ['caseId', text],
    ['options', sendOptions.extend({ userId: text.optional(), concurrency: number.optional() }).optional()],
  ],
  runCheck: [
    [
      'options',
      z.object({
        to: text.optional(),
        userId: text,
        profile: text.optional(),
        confirmedProduction: z.boolean().optional(),
        customSecret: text.optional(),
        callbackPrefix: text.optional(),
        amounts: amountsMode.optional(),
        stake: number.optional(),
        concurrency: number.optional(),
        balanceUrl: text.optional(),
        balancePath: text.optional(),
      }),
    ],
  ],
  listCheckReports: none,
  getCheckReport: [['id', id]],
  exportCheckReport: [
    ['id', id],
    ['format', text],
  ],
  requestToken: [
    [
      'request',
      z.object({
        userId: text,
        displayName: text,
        profile: text.optional(),
        baseUrl: text.optional(),
        operatorId: text.optional(),
        apiKey: text.optional(),
        confirmedBaseUrl: text.optional(),
        allowSelfSigned: z.boolean().optional(),
      }),
    ],
  ],
  listTokenHistory: [['limit', number.optional()]],
  listProfiles: none,
  saveProfile: [['input', profileInput]],
  duplicateProfile: [
    ['name', text],
    ['newName', text],
  ],
  useProfile: [['name', text]],
  removeProfile: [['name', text]],
  saveRequest: [['input', z.object({ name: text, profile: text.optional(), draft, signature: text })]],
  listSavedRequests: [['profile', text.optional()]],
  removeSavedRequest: [
    ['name', text],
    ['profile', text.optional()],
  ],
  exportSavedRequests: [['profile', text.optional()]],
  importSavedRequests: [
    ['fileText', z.string().max(16 * 1024 * 1024)],
    ['profile', text.optional()],
  ],
  readBalance: [
    ['userId', text],
    ['profile', text.optional()],
  ],
  explainRefusal: [
    ['id', id],
    ['options', z.object({ profile: text.optional(), confirmedProduction: z.boolean().optional() }).optional()],
  ],
  getSandboxState: none,
  setSandboxBalance: [
    ['userId', text],
    ['balance', number],
  ],
  setSandboxStartingBalance: [['balance', number]],
  resetSandbox: none,
  listFaults: none,
  addFault: [['input', faultInput]],
  clearFaults: none,
  exportHar: [['query', exchangeQuery.extend({ reportId: id.optional() }).optional()]],
  importHar: [
    ['text', text],
    ['options', z.object({ profile: text.optional(), origin: text.optional(), callbackPrefix: text.optional() }).optional()],
  ],
  ticketBundle: [
    ['depositId', text],
    ['profile', text.optional()],
  ],
  selectRedelivery: [
    ['filter', redeliveryFilter],
    ['options', z.object({ limit: number.optional(), afterId: id.optional() }).optional()],
  ],
  redeliver: [
    [
      'request',
      z.object({
        filter: redeliveryFilter,
        runId: text.optional(),
        to: text.optional(),
        profile: text.optional(),
        confirmedProduction: z.boolean().optional(),
        rate: number.optional(),
        signature: text.optional(),
        stopOnFailure: z.boolean().optional(),
        resignInvalid: z.boolean().optional(),
      }),
    ],
  ],
  stopRedelivery: [['runId', text]],
  followExchanges: [['cursor', z.object({ afterId: id.nullable(), pendingIds: z.array(id).optional(), query: rowFilter.optional() })]],
  reverify: [['request', z.object({ query: rowFilter.optional(), ids: z.array(id).optional(), profile: text.optional() })]],
};

/**
 * What kind of value was given, never the value itself: any field may hold a secret typed in the wrong
 * place (an API key pasted into the amounts mode), and this text reaches logs and the UI.
 */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return `a string of ${value.length} character${value.length === 1 ? '' : 's'}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Zod's message for an issue, unless it quotes the value given (a custom message might). */
function saidOf(message: string, value: unknown): string {
  const quoted = (typeof value === 'string' || typeof value === 'number') && String(value).length > 0 && message.includes(String(value));
  return quoted ? 'not of the expected shape' : message;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) at = at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

/**
 * Checks a call's arguments against the method's schemas: null when they fit, else the `bad-input` error
 * naming the argument (and the field inside it) that does not.
 */
export function checkDeskArgs(method: DeskMethod, args: readonly unknown[]): DeskError | null {
  const spec = DESK_ARGS[method] as readonly Arg[];
  if (args.length > spec.length) {
    return { code: 'bad-input', message: `${method} takes ${spec.length} argument${spec.length === 1 ? '' : 's'}; got ${args.length}.` };
  }
  for (let i = 0; i < spec.length; i++) {
    const [name, schema] = spec[i]!;
    const checked = schema.safeParse(args[i]);
    if (checked.success) continue;
    // JSON writes an absent argument inside the array as null: an optional argument may be null.
    if (args[i] === null && schema.safeParse(undefined).success) continue;
    const issue = checked.error.issues[0]!;
    const where = [name, ...issue.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`))].join('').replace(/\.\[/g, '[');
    // The field's path and what kind of value it got, never the value: any field may hold a secret.
    const value = valueAt(args[i], issue.path);
    return { code: 'bad-input', message: `${method}: ${where} is not valid (${saidOf(issue.message, value)}; got ${kindOf(value)}).` };
  }
  return null;
}
