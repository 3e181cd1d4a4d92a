// The capture proxy's HTTP server: any method, any path, each request handed to an Inbound. The guard
// rails live here: timeouts for headers, whole requests and idle connections, a header size limit
// (and a header count limit that never cuts below it), and the handlers for what never becomes an
// Inbound (a request Node's parser refused, CONNECT, an Expect the proxy cannot meet): each is
// recorded with what was received, then answered, so one bad client never stops the server and no
// request that reached it is missing from the log.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { CaptureEnv, GuardRails } from './env';
import { proxyError, rawResponse, type ProxyErrorCode } from './error-answers';
import { flatten as flattenHeaders } from './headers';
import { Forwarder } from './forward';
import { GroupCommit } from './group-commit';
import { Inbound } from './inbound';
import { recordRefused, refusedOf, requestLineOf } from './refused';
import type { TlsMaterial } from './tls';

/**
 * Node keeps 2,000 headers by default and drops the rest silently (the signature among them, when it
 * comes late). The smallest header line ("a:" CRLF) is 4 bytes, so this count is never reached before
 * the header size limit refuses the request: a request is either refused whole (431) or kept whole.
 */
export function maxHeadersCountFor(maxHeaderBytes: number): number {
  return Math.ceil(maxHeaderBytes / 4) + 1;
}

/** How long stop() lets exchanges in flight finish before it cuts their connections. */
export const CLOSE_GRACE_MS = 2_000;

function errorCodeFor(err: NodeJS.ErrnoException): ProxyErrorCode {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'HEADERS_TOO_LARGE';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'REQUEST_TIMEOUT';
    default:
      return 'BAD_REQUEST';
  }
}

function describe(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'the client was too slow: the request was not complete within the request timeout';
    case 'HPE_HEADER_OVERFLOW':
      return 'the request headers were larger than allowed';
    default:
      return `the request was malformed (${err.code ?? 'parse error'}: ${err.message})`;
  }
}

export class CaptureServer {
  private readonly server: http.Server;
  /** What new requests are handled with: a change of configuration replaces it, requests in flight keep theirs. */
  private env: CaptureEnv;
  /** One forwarder (one connection pool) per upstream in use, by its href. */
  private readonly forwarders = new Map<string, Forwarder>();
  /** Forwarders a change replaced: closed once the requests that may still use them are done. */
  private retired: Forwarder[] = [];
  private readonly commits: GroupCommit;
  /** The request whose body is being read on each socket, so a parser failure can be recorded on it. */
  private readonly reading = new WeakMap<Socket, Inbound>();
  private maxHeadersCount: number;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private closing: Promise<void> | null = null;
  private hurry: ((graceMs: number) => void) | null = null;

  private constructor(
    env: CaptureEnv,
    rails: GuardRails,
    /** HTTPS with this certificate; null: plain HTTP. */
    readonly tls: TlsMaterial | null,
  ) {
    this.env = env;
    this.commits = new GroupCommit(env.db);
    const options: http.ServerOptions = {
      maxHeaderSize: rails.maxHeaderBytes,
      // Node refuses a headers timeout longer than the request timeout; the headers are part of the request.
      headersTimeout: Math.min(rails.headersTimeoutMs, rails.requestTimeoutMs),
      requestTimeout: rails.requestTimeoutMs,
      keepAliveTimeout: rails.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this period (default 30 s, far too coarse for them).
      connectionsCheckingInterval: checkingIntervalOf(rails),
      noDelay: true,
      // Node would answer a Host-less HTTP/1.1 request 400 on its own, before it could be recorded;
      // the proxy records it and, forwarding, sends the upstream's Host anyway.
      requireHostHeader: false,
    };
    const handler = (req: IncomingMessage, res: ServerResponse): void => this.onRequest(req, res);
    this.server = tls ? https.createServer({ ...options, cert: tls.cert, key: tls.key }, handler) : http.createServer(options, handler);
    this.maxHeadersCount = maxHeadersCountFor(rails.maxHeaderBytes);
    this.server.maxHeadersCount = this.maxHeadersCount;
    this.server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => this.onClientError(err, socket));
    this.server.on('connect', (req: IncomingMessage, socket: Socket) => this.onConnect(req, socket));
    this.server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => this.onExpectation(req, res));
  }

  static listen(env: CaptureEnv, rails: GuardRails, host: string, port: number, tls: TlsMaterial | null = null): Promise<CaptureServer> {
    const capture = new CaptureServer(env, rails, tls);
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => {
        for (const f of capture.forwarders.values()) f.close();
        reject(err);
      };
      capture.server.once('error', onError);
      capture.server.listen({ host, port, exclusive: true }, () => {
        capture.server.off('error', onError);
        resolve(capture);
      });
    });
  }

  get scheme(): 'http' | 'https' {
    return this.tls ? 'https' : 'http';
  }

  /**
   * Changes what the running listener does without closing it: new requests are judged, answered and
   * forwarded under `env`, with these guard rails and (over HTTPS) this certificate; requests in flight
   * finish as they began (their forwarder is closed once they are done). The scheme cannot change here.
   */
  reconfigure(env: CaptureEnv, rails: GuardRails, tls: TlsMaterial | null): void {
    if ((tls === null) !== (this.tls === null)) throw new Error('a running listener cannot change its scheme');
    if (tls) (this.server as https.Server).setSecureContext({ cert: tls.cert, key: tls.key });
    (this as { tls: TlsMaterial | null }).tls = tls;
    const server = this.server;
    server.headersTimeout = Math.min(rails.headersTimeoutMs, rails.requestTimeoutMs);
    server.requestTimeout = rails.requestTimeoutMs;
    server.keepAliveTimeout = rails.keepAliveTimeoutMs;
    // Read by Node for each new connection's parser.
    (server as http.Server & { maxHeaderSize?: number }).maxHeaderSize = rails.maxHeaderBytes;
    this.maxHeadersCount = maxHeadersCountFor(rails.maxHeaderBytes);
    server.maxHeadersCount = this.maxHeadersCount;
    this.env = env;
    this.retireUnused();
  }

  /** The forwarder of an upstream, made on first use. */
  private forwarderFor(upstream: URL): Forwarder {
    let found = this.forwarders.get(upstream.href);
    if (found === undefined) {
      found = new Forwarder(upstream);
      this.forwarders.set(upstream.href, found);
      // A new upstream may replace one a profile no longer names (a profile changed while serving).
      this.retireUnused();
    }
    return found;
  }

  /** Forwarders of upstreams no route names any more: closed once the requests that may still use them are done. */
  private retireUnused(): void {
    const named = new Set(this.env.routes().routes.map((r) => r.upstream?.href));
    for (const [href, f] of this.forwarders) {
      if (named.has(href)) continue;
      this.forwarders.delete(href);
      this.retired.push(f);
    }
    if (this.inFlight === 0) this.closeRetired();
  }

  private closeRetired(): void {
    for (const f of this.retired.splice(0)) f.close();
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address !== null ? address.port : 0;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    this.inFlight++;
    res.once('close', () => {
      if (--this.inFlight > 0) return;
      this.closeRetired();
      for (const wake of this.idleWaiters.splice(0)) wake();
    });
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const route = this.env.routes().match(q < 0 ? url : url.slice(0, q));
    const forwarder = route?.upstream ? this.forwarderFor(route.upstream) : null;
    const inbound = new Inbound(this.env, route, forwarder, this.commits, req, res, this.maxHeadersCount);
    this.reading.set(req.socket, inbound);
    req.once('end', () => {
      if (this.reading.get(req.socket) === inbound) this.reading.delete(req.socket);
    });
    inbound.begin();
  }

  private onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
    if (err.code?.startsWith('ERR_SSL_')) {
      // A TLS handshake that failed (a client that does not trust the certificate): no request was made.
      socket.destroy();
      return;
    }
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || err.code === 'HPE_INVALID_EOF_STATE') {
      // The client went away (mid-body, for EOF): nobody to answer; record what it had sent.
      this.reading.get(socket)?.clientLeft();
      socket.destroy();
      return;
    }
    const answer = proxyError(errorCodeFor(err), true);
    const inbound = this.reading.get(socket);
    // Like Node's own handler: write an answer only when no response has started on this socket, or
    // the bytes would corrupt it. `_httpMessage` is the response in flight (Node's internal).
    const answerRaw = (): void => {
      const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (socket.writable && (!inFlight || !inFlight.headersSent)) socket.end(rawResponse(answer));
      socket.destroySoon();
    };
    if (inbound) {
      inbound.failWhileReading(answer, describe(err));
      answerRaw();
      return;
    }
    const raw = (err as { rawPacket?: Buffer }).rawPacket;
    if (raw === undefined && err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // Headers that never completed in time (slowloris): no request line was handed over, so there
      // is no request to record, only a connection to cut.
      answerRaw();
      return;
    }
    // Refused before a request object existed (the header block): its row holds the raw bytes received.
    const line = requestLineOf(raw ?? Buffer.alloc(0));
    const refused = { ...line, headers: [], raw: raw ?? Buffer.alloc(0), remoteAddress: socket.remoteAddress ?? null };
    recordRefused(this.env, this.commits, refused, answer, describe(err), (recorded) => (recorded ? answerRaw() : socket.destroy()));
  }

  /** CONNECT asks for a tunnel, which a capture proxy does not make: recorded and refused 405. */
  private onConnect(req: IncomingMessage, socket: Socket): void {
    socket.on('error', () => {});
    const answer = proxyError('METHOD_NOT_ALLOWED', true);
    const error = 'CONNECT asks for a tunnel, which the capture proxy does not make';
    recordRefused(this.env, this.commits, refusedOf(req), answer, error, (recorded) => {
      if (recorded && socket.writable) socket.end(rawResponse(answer));
      socket.destroySoon();
    });
  }

  /** An Expect other than 100-continue cannot be met: recorded and refused 417, the body never asked for. */
  private onExpectation(req: IncomingMessage, res: ServerResponse): void {
    const answer = proxyError('EXPECTATION_FAILED', true);
    const error = `the request expects ${JSON.stringify(req.headers.expect ?? '')}, which the proxy cannot meet (only 100-continue)`;
    recordRefused(this.env, this.commits, refusedOf(req), answer, error, (recorded) => {
      if (!recorded || res.destroyed) return void res.destroy();
      res.shouldKeepAlive = false;
      res.writeHead(answer.status, flattenHeaders(answer.headers));
      res.end(answer.body);
    });
  }

  /**
   * Stops listening, lets exchanges in flight finish (up to `graceMs`), then cuts what is left. Called
   * again while closing, it waits for the same close, shortened to the new grace when that is shorter.
   */
  close(graceMs: number = CLOSE_GRACE_MS): Promise<void> {
    if (this.closing) {
      this.hurry?.(graceMs);
      return this.closing;
    }
    this.closing = this.closeWithin(graceMs);
    return this.closing;
  }

  private async closeWithin(graceMs: number): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    if (this.inFlight > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => this.idleWaiters.push(resolve)),
        new Promise<void>((resolve) => {
          let deadline = Date.now() + graceMs;
          timer = setTimeout(resolve, graceMs);
          this.hurry = (shorter) => {
            if (Date.now() + shorter >= deadline) return;
            deadline = Date.now() + shorter;
            clearTimeout(timer);
            timer = setTimeout(resolve, shorter);
          };
        }),
      ]);
      clearTimeout(timer);
    }
    this.server.closeAllConnections();
    await closed;
    for (const f of this.forwarders.values()) f.close();
    this.forwarders.clear();
    this.closeRetired();
    // Responses recorded in the last turn are still queued: write them before the desk closes the database.
    this.commits.close();
  }
}

function checkingIntervalOf(rails: GuardRails): number {
  return Math.max(50, Math.min(1_000, Math.floor(Math.min(rails.headersTimeoutMs, rails.requestTimeoutMs) / 4)));
}
