// The one HTTP client of the desk: replay, send, edge cases, the conformance check and token
// requests all go through it. It sends the exact bytes and headers it is given, never follows a
// redirect (a signature or an API key must never reach a second origin), and never throws: every
// failure comes back as a kind and a sentence.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import tls from 'node:tls';
import type { HeaderList } from '../../shared/model';
import { toPairs, withContentLength } from './headers';
import { badUrlError, describeSendError, timeoutError, type SendErrorCode } from './send-errors';

export interface OutboundRequest {
  url: string;
  method: string;
  headers: HeaderList;
  body: Uint8Array;
  timeoutMs: number;
  /**
   * Accept a self-signed certificate from this request's target. The host name is checked all the same,
   * and so are the certificate's dates; callers set it only for the target it was allowed for.
   */
  allowSelfSigned?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: HeaderList;
  body: Uint8Array;
}

export type OutboundOutcome =
  { ok: true; response: OutboundResponse; durationMs: number } | { ok: false; errorCode: SendErrorCode; error: string; durationMs: number };

/** Answers beyond this size are cut: the desk keeps evidence, not downloads. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** The headers as they go on the wire: Content-Length set to the body length, Host added when absent. */
export function wireHeaders(headers: HeaderList, body: Uint8Array, url: URL): HeaderList {
  const framed = withContentLength(headers, body.byteLength);
  return framed.some(([n]) => n.toLowerCase() === 'host') ? framed : [['Host', url.host], ...framed];
}

/** Sends exact bytes with exact headers (Content-Length always set to body length, replacing any given). Never follows redirects, never throws. */
export function httpSend(req: OutboundRequest): Promise<OutboundOutcome> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);

  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return Promise.resolve({ ok: false, ...badUrlError(req.url, 'it is not a URL'), durationMs: 0 });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.resolve({ ok: false, ...badUrlError(req.url, `only http and https are supported, not ${url.protocol}`), durationMs: 0 });
  }

  return new Promise<OutboundOutcome>((resolve) => {
    let settled = false;
    let request: http.ClientRequest | null = null;
    let handshake: tls.TLSSocket | null = null;
    const finish = (outcome: OutboundOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const fail = (err: unknown): void => finish({ ok: false, ...describeSendError(err, url), durationMs: elapsed() });
    const timer = setTimeout(() => {
      finish({ ok: false, ...timeoutError(url, req.timeoutMs), durationMs: elapsed() });
      request?.destroy();
      handshake?.destroy();
    }, req.timeoutMs);

    const send = (socket: tls.TLSSocket | null): void => {
      if (settled) {
        socket?.destroy();
        return;
      }
      try {
        const options: https.RequestOptions = {
          method: req.method,
          hostname: hostOf(url),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          // The array form keeps order, case and repeated headers exactly; Node adds nothing but Connection.
          headers: wireHeaders(req.headers, req.body, url).flat(),
          // A fresh connection per send: no pooled socket carries one profile's TLS setting into another's.
          ...(socket ? { createConnection: () => socket } : { agent: false }),
        };
        request = (url.protocol === 'https:' ? https : http).request(options);
      } catch (err) {
        socket?.destroy();
        // Node refuses some values synchronously (a header value with a newline, an invalid method).
        finish({ ok: false, errorCode: 'other', error: `The request could not be built: ${(err as Error).message}`, durationMs: elapsed() });
        return;
      }
      receive(request);
    };

    const receive = (request: http.ClientRequest): void => {
      request.on('error', fail);
      request.on('response', (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept >= MAX_RESPONSE_BYTES) return;
          const part = chunk.subarray(0, MAX_RESPONSE_BYTES - kept);
          chunks.push(part);
          kept += part.length;
        });
        res.on('error', fail);
        res.on('aborted', () => fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
        res.on('end', () => {
          finish({
            ok: true,
            response: { status: res.statusCode ?? 0, headers: toPairs(res.rawHeaders), body: new Uint8Array(Buffer.concat(chunks)) },
            durationMs: elapsed(),
          });
        });
      });
      request.end(Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength));
    };

    if (url.protocol === 'https:' && req.allowSelfSigned) {
      // The handshake completes, and the certificate is judged, before a byte of the request exists:
      // a signature or an API key never reaches a server whose certificate is for another name.
      handshake = connectAllowingSelfSigned(url);
      handshake.once('error', fail);
      handshake.once('secureConnect', () => {
        const refusal = selfSignedRefusal(handshake!, hostOf(url));
        if (refusal) {
          handshake!.destroy();
          fail(refusal);
          return;
        }
        handshake!.removeListener('error', fail);
        send(handshake!);
      });
    } else {
      send(null);
    }
  });
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function connectAllowingSelfSigned(url: URL): tls.TLSSocket {
  const host = hostOf(url);
  return tls.connect({
    host,
    port: Number(url.port || 443),
    ...(isIP(host) ? {} : { servername: host }),
    // OpenSSL's verdict is read in selfSignedRefusal instead: it refuses a self-signed certificate before
    // Node would check the host name, so both are checked there.
    rejectUnauthorized: false,
    ALPNProtocols: ['http/1.1'],
  });
}

/** The verdicts of OpenSSL that mean "self-signed" and nothing else. */
const SELF_SIGNED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN']);

/**
 * Why this connection must not carry the request, or null. A trusted certificate passes as usual; a
 * self-signed one passes only for the host name it names and within its dates; anything else (an
 * expired or unrelated certificate) is refused with OpenSSL's code.
 */
export function selfSignedRefusal(socket: tls.TLSSocket, host: string): Error | null {
  if (socket.authorized) return null;
  const reason = socket.authorizationError;
  const code = typeof reason === 'string' ? reason : ((reason as unknown as { code?: string } | undefined)?.code ?? String(reason));
  if (!SELF_SIGNED.has(code)) return Object.assign(new Error(`certificate refused: ${code}`), { code });
  const cert = socket.getPeerCertificate();
  const wrongName = tls.checkServerIdentity(host, cert);
  if (wrongName) return wrongName;
  const now = Date.now();
  if (now < Date.parse(cert.valid_from)) return Object.assign(new Error('certificate is not yet valid'), { code: 'CERT_NOT_YET_VALID' });
  if (now > Date.parse(cert.valid_to)) return Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' });
  return null;
}
