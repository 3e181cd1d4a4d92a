// Every send is an exchange: the request row is committed before the bytes leave, so even a send
// that hangs or crashes the desk leaves its trace; the answer (or the reason there is none) follows.
import type { ExchangeDetail, ExchangeKind, ExchangeOrigin, Finding, KeyFields, SignatureReport } from '../../shared/model';
import type { StoreAndSecrets as DeskContext } from '../secrets';
import { extractKeyFields, inspect } from '../protocol';
import { redactHeaders } from '../redact';
import { httpSend, wireHeaders, type OutboundRequest } from './http-send';
import { scrubOutcome } from './scrub';

export interface RecordedSend {
  request: OutboundRequest;
  kind: ExchangeKind;
  origin: ExchangeOrigin;
  sourceId: number | null;
  /**
   * Secrets that must not reach the database in clear (a token request's API key): the stored request
   * headers carry their fingerprint instead (x-api-key always), and the answer or error is scrubbed
   * before it is written. Default: everything is stored as sent and received.
   */
  secrets?: readonly string[];
  signature: SignatureReport | null;
  /** Default: the protocol inspection of the body for pay and results, none otherwise. */
  findings?: Finding[];
  /** Default: the key fields parsed from the body. */
  keys?: KeyFields;
  tags?: string[];
}

function pathAndQuery(raw: string): { url: URL | null; path: string; query: string } {
  try {
    const url = new URL(raw);
    return { url, path: url.pathname, query: url.search.replace(/^\?/, '') };
  } catch {
    return { url: null, path: raw, query: '' };
  }
}

/** Commits the request row (outbound), sends, records the response or error; returns the stored detail. */
export async function sendAndRecord(ctx: DeskContext, send: RecordedSend): Promise<ExchangeDetail> {
  const { request } = send;
  const { url, path, query } = pathAndQuery(request.url);
  const stored = send.secrets ? redactHeaders(request.headers, send.secrets) : request.headers;
  const { id } = ctx.store.exchanges.insert({
    direction: 'outbound',
    kind: send.kind,
    origin: send.origin,
    at: new Date().toISOString(),
    method: request.method,
    path,
    query,
    target: request.url,
    // What went on the wire, so the log shows the real Content-Length and Host.
    headers: url ? wireHeaders(stored, request.body, url) : stored,
    body: request.body,
    size: request.body.byteLength,
    truncated: false,
    remoteAddress: null,
    signature: send.signature,
    findings: send.findings ?? (send.kind === 'pay' || send.kind === 'results' ? inspect(send.kind, request.body) : []),
    keys: send.keys ?? extractKeyFields(request.body),
    sourceId: send.sourceId,
    ...(send.tags ? { tags: send.tags } : {}),
  });

  const sent = await httpSend(request);
  const outcome = send.secrets ? scrubOutcome(sent, send.secrets) : sent;
  ctx.store.exchanges.complete(id, {
    response: outcome.ok ? outcome.response : null,
    error: outcome.ok ? null : outcome.error,
    durationMs: outcome.durationMs,
    completedAt: new Date().toISOString(),
  });
  const detail = ctx.store.exchanges.get(id);
  if (!detail) throw new Error(`Exchange ${id} vanished after it was recorded.`);
  return detail;
}
