// The proxy's own answers, in the spec's error shape (section 2.6) so that a caller that understands
// an operator's refusals understands these too. isClientSafe is false: none is meant for a player.
import { STATUS_CODES } from 'node:http';
import type { HeaderList } from '../../shared/model';

export type ProxyErrorCode =
  | 'PAYLOAD_TOO_LARGE'
  | 'NOT_FOUND'
  | 'UPSTREAM_UNREACHABLE'
  | 'UPSTREAM_TIMEOUT'
  | 'BAD_REQUEST'
  | 'REQUEST_TIMEOUT'
  | 'HEADERS_TOO_LARGE'
  | 'METHOD_NOT_ALLOWED'
  | 'EXPECTATION_FAILED'
  | 'INTERNAL_ERROR'
  | 'CAPTURE_NOT_STORED';

export interface ProxyAnswer {
  status: number;
  headers: HeaderList;
  body: Buffer;
}

const STATUS: Record<ProxyErrorCode, number> = {
  PAYLOAD_TOO_LARGE: 413,
  NOT_FOUND: 404,
  UPSTREAM_UNREACHABLE: 502,
  UPSTREAM_TIMEOUT: 504,
  BAD_REQUEST: 400,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
  METHOD_NOT_ALLOWED: 405,
  EXPECTATION_FAILED: 417,
  INTERNAL_ERROR: 500,
  // The request's row could not be committed: nothing was forwarded or decided, and the platform retries a 503.
  CAPTURE_NOT_STORED: 503,
};

export function jsonAnswer(status: number, body: string, extra: HeaderList = []): ProxyAnswer {
  const bytes = Buffer.from(body, 'utf8');
  return {
    status,
    headers: [['content-type', 'application/json; charset=utf-8'], ['content-length', String(bytes.length)], ...extra],
    body: bytes,
  };
}

/** An error answer; `close` asks Node to end the connection after it (the request was not read whole). */
export function proxyError(code: ProxyErrorCode, close = false): ProxyAnswer {
  return jsonAnswer(STATUS[code], JSON.stringify({ errors: [{ code, isClientSafe: false }] }), close ? [['connection', 'close']] : []);
}

/** The same answer as raw HTTP/1.1 bytes, for a socket whose parser failed (no ServerResponse to use). */
export function rawResponse(answer: ProxyAnswer): Buffer {
  const head = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}`, ...answer.headers.map(([n, v]) => `${n}: ${v}`)];
  if (!answer.headers.some(([n]) => n.toLowerCase() === 'connection')) head.push('connection: close');
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), answer.body]);
}
