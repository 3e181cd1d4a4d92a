// What an Inbound hands the judge, and the row it writes when even the judge failed: plain functions of
// the request as it arrived, so the lifecycle in inbound.ts is only about states and writes.
import type { IncomingMessage } from 'node:http';
import type { CapturedRequest } from '../capture';
import type { NewExchange } from '../capture/new-exchange';
import { toPairs } from '../outbound/headers';

/** A request as it arrived at the proxy, before its row exists. */
export interface Arrival {
  req: IncomingMessage;
  /** ISO time of arrival. */
  at: string;
  path: string;
  query: string;
  /** Body bytes received so far. */
  received: number;
  /** Node's maxHeadersCount: a request with this many headers may have had more, dropped. */
  maxHeadersCount: number;
}

/** The request as received, for the judge. */
export function capturedRequest(a: Arrival, body: Buffer, truncated: boolean): CapturedRequest {
  return {
    direction: 'inbound',
    origin: 'proxy',
    at: a.at,
    method: a.req.method ?? '',
    path: a.path,
    query: a.query,
    target: null,
    headers: toPairs(a.req.rawHeaders),
    body,
    size: a.received,
    truncated,
    remoteAddress: a.req.socket.remoteAddress ?? null,
    sourceId: null,
    headersAtLimit: a.maxHeadersCount > 0 && a.req.rawHeaders.length / 2 >= a.maxHeadersCount,
    scheme: schemeOf(a.req),
  };
}

/**
 * The row of a request the judge itself failed on: only what cannot hold a secret (method, size,
 * time), with the error as its only finding. Nothing is lost from the log, and nothing is kept in clear.
 */
export function bareRow(a: Arrival, error: string): NewExchange {
  return {
    direction: 'inbound',
    kind: 'other',
    origin: 'proxy',
    at: a.at,
    method: a.req.method ?? '',
    path: '/',
    query: '',
    target: null,
    headers: [],
    body: new Uint8Array(),
    size: a.received,
    truncated: a.received > 0,
    remoteAddress: a.req.socket.remoteAddress ?? null,
    signature: null,
    findings: [{ level: 'error', path: '$', message: `${error} (the request's path, headers and body are not stored)` }],
    keys: { depositId: null, userId: null, result: null, gameId: null, amount: null, currency: null, tournamentId: null },
    sourceId: null,
    scheme: schemeOf(a.req),
  };
}

/** How the request reached the proxy: a TLS socket means https. */
export function schemeOf(req: IncomingMessage): 'http' | 'https' {
  return (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
}
