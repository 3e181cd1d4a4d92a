// Every send is an exchange: the request row is committed before the bytes leave, so even a send
// that hangs or crashes the desk leaves its trace; the answer (or the reason there is none) follows.
// The row is made by the same judge as a capture's; what is stored of the answer has every secret
// scrubbed, in whatever encoding the other side echoed it.
import type { ExchangeDetail, ExchangeOrigin, SignatureReport } from '../../shared/model';
import { judge, type JudgingContext } from '../capture';
import { secretsToRedact } from '../redact';
import type { ExchangeLog } from '../store/contract/exchange-log';
import { httpSend, wireHeaders, type OutboundRequest } from './http-send';
import { scrubOutcome } from './scrub';

/** What recording a send needs: where rows go, and what they are judged with. */
export interface RecordingDeps extends JudgingContext {
  log: ExchangeLog;
}

export interface RecordedSend {
  request: OutboundRequest;
  origin: ExchangeOrigin;
  sourceId: number | null;
  /**
   * Secrets of this send only, beyond the stored ones (an API key given for one call): none of them
   * reaches the database in clear, in the request or in the answer.
   */
  secrets?: readonly string[];
  /** The sender's own report (how it signed, and why); default: verified by the judge. */
  signature?: SignatureReport | null;
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
export async function sendAndRecord(deps: RecordingDeps, send: RecordedSend): Promise<ExchangeDetail> {
  const { request } = send;
  const { url, path, query } = pathAndQuery(request.url);
  const secrets = send.secrets ? secretsToRedact(send.secrets, deps.secrets) : deps.secrets;
  const { row } = judge(
    {
      direction: 'outbound',
      origin: send.origin,
      at: new Date().toISOString(),
      method: request.method,
      path,
      query,
      target: request.url,
      // What went on the wire, so the log shows the real Content-Length and Host.
      headers: url ? wireHeaders(request.headers, request.body, url) : request.headers,
      body: request.body,
      size: request.body.byteLength,
      truncated: false,
      remoteAddress: null,
      sourceId: send.sourceId,
      ...(send.tags ? { tags: send.tags } : {}),
    },
    { ...deps, secrets },
    send.signature !== undefined ? { signature: send.signature } : {},
  );
  const id = await deps.log.write((rows) => rows.record(row));

  const outcome = scrubOutcome(await httpSend(request), secrets);
  const completion = {
    response: outcome.ok ? outcome.response : null,
    error: outcome.ok ? null : outcome.error,
    durationMs: outcome.durationMs,
    completedAt: new Date().toISOString(),
  };
  await deps.log.write((rows) => rows.finish(id, completion), 0);
  const detail = await deps.log.get(id);
  if (!detail) throw new Error(`Exchange ${id} vanished after it was recorded.`);
  return detail;
}
