// Requests Node's parser refuses before there is a request object to hand to an Inbound (a header
// block over the limit, bad framing, a bad method or version, a headers timeout), and requests the
// proxy refuses at the door (CONNECT, an Expect other than 100-continue): each still gets its row,
// with what was received, before its refusal is written. The raw bytes Node hands over are kept up to
// a bound, with every stored secret redacted in any form (they hold the headers, Basic credentials too).
import type { IncomingMessage } from 'node:http';
import type { HeaderList } from '../../shared/model';
import { judge, redactCompletion, type CapturedRequest } from '../capture';
import { normalizedPath } from '../protocol/target-path';
import { redactBytes } from '../redact';
import type { ExchangeCompletion, NewExchange } from '../capture/new-exchange';
import type { CaptureEnv } from './env';
import type { ProxyAnswer } from './error-answers';
import type { CaptureWriter } from '../store/contract/capture-writer';
import { toPairs } from '../outbound/headers';

/** Bytes of a refused request kept in its row, at most. */
export const MAX_REFUSED_BYTES = 32 * 1024;

export interface Refused {
  method: string;
  /** The request target as received (origin form, or the authority of a CONNECT). */
  target: string;
  headers: HeaderList;
  /** What was received, as Node handed it over (the raw packet of a parser error); kept up to the bound. */
  raw: Uint8Array;
  remoteAddress: string | null;
}

/** The method and target of a request line, as far as the raw bytes tell (they may be anything). */
export function requestLineOf(raw: Uint8Array): { method: string; target: string } {
  const head = Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.byteLength, 8 * 1024)).toString('latin1');
  const line = head.split(/\r?\n/, 1)[0] ?? '';
  const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) +(\S{1,4096})/.exec(line);
  return m ? { method: m[1]!, target: m[2]! } : { method: '', target: '/' };
}

export function refusedOf(req: IncomingMessage): Refused {
  return {
    method: req.method ?? '',
    target: req.url ?? '/',
    headers: toPairs(req.rawHeaders),
    raw: new Uint8Array(),
    remoteAddress: req.socket.remoteAddress ?? null,
  };
}

/**
 * Records the refused request and its answer in one write of the group commit; `then` runs once that
 * is durable (or failed: the row could not be written), and writes the answer.
 */
export function recordRefused(
  env: CaptureEnv,
  commits: CaptureWriter,
  refused: Refused,
  /** The answer about to be written; null: none (the client is gone, or the connection is only cut). */
  answer: ProxyAnswer | null,
  error: string,
  then: (recorded: boolean) => void,
): void {
  const at = new Date().toISOString();
  let row: NewExchange;
  let completion: ExchangeCompletion = { response: answer, error, durationMs: 0, completedAt: at };
  try {
    const secrets = env.secrets();
    // The error text may quote what arrived (an Expect value): redacted like the row.
    completion = redactCompletion(completion, secrets);
    const kept = refused.raw.byteLength > MAX_REFUSED_BYTES ? refused.raw.subarray(0, MAX_REFUSED_BYTES) : refused.raw;
    const q = refused.target.indexOf('?');
    const request: CapturedRequest = {
      direction: 'inbound',
      origin: 'proxy',
      at,
      method: refused.method,
      path: q < 0 ? refused.target : refused.target.slice(0, q),
      query: q < 0 ? '' : refused.target.slice(q + 1),
      target: null,
      headers: refused.headers,
      body: redactBytes(kept, secrets).bytes,
      size: refused.raw.byteLength,
      truncated: kept.byteLength < refused.raw.byteLength,
      remoteAddress: refused.remoteAddress,
      sourceId: null,
    };
    const note =
      refused.raw.byteLength > 0
        ? [
            {
              level: 'info' as const,
              path: '$',
              message: 'the stored body is the raw bytes the proxy received (request line and headers included), not a parsed body',
            },
          ]
        : [];
    // Whose it is, when the path tells (a request refused at the door still belongs to the profile it was sent to).
    const profile = env.routes().match(normalizedPath(request.path))?.profile ?? null;
    row = judge(request, { candidates: [], secrets, profile }, { unjudged: true, findings: note }).row;
  } catch (err) {
    // Even the redaction failed (the secrets could not be read): a row with nothing that could hold one.
    env.onUnjudged(err);
    completion = { ...completion, error: 'the error text is not stored: the secrets to redact it could not be read' };
    row = judge(
      {
        direction: 'inbound',
        origin: 'proxy',
        at,
        method: refused.method,
        path: '/',
        query: '',
        target: null,
        headers: [],
        body: new Uint8Array(),
        size: refused.raw.byteLength,
        truncated: refused.raw.byteLength > 0,
        remoteAddress: refused.remoteAddress,
        sourceId: null,
      },
      { candidates: [], secrets: [] },
      {
        unjudged: true,
        findings: [
          {
            level: 'error',
            path: '$',
            message: `internal error: ${(err as Error)?.message ?? String(err)} (the request's path, headers and bytes are not stored)`,
          },
        ],
      },
    ).row;
  }
  commits.write(
    (tx) => {
      const id = tx.rows.record(row);
      tx.rows.finish(id, { ...completion, completedAt: new Date().toISOString() });
      return id;
    },
    (err) => {
      if (err !== null) env.onCaptureFailure(err);
      then(err === null);
    },
  );
}
