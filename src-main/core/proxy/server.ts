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
import { proxyError, rawResponse, type ProxyAnswer, type ProxyErrorCode } from './error-answers';
import { flatten as flattenHeaders } from './headers';
import { Forwarder } from './forward';
import type { CaptureWriter } from '../store/contract/capture-writer';
import { Inbound } from './inbound';
import { ConnectionBudget } from './connection-budget';
import { handshakeError, HandshakeFailureBudget } from './handshake-failures';
import { headerBlockBytes } from './header-block';
import { recordRefused, refusedOf, requestLineOf, type Refused } from './refused';
import { requestTarget, routeOfTarget } from './request-target';
import type { TlsMaterial } from './tls';

/**
 * Node keeps 2,000 headers by default and drops the rest silently (the signature among them, when it
 * comes late). The proxy keeps every header (0: no count limit) and measures the header block itself
 * (header-block.ts), so a request is either refused whole (431) or kept whole.
 */
const KEEP_EVERY_HEADER = 0;

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
  private readonly commits: CaptureWriter;
  /** The request whose body is being read on each socket, so a parser failure can be recorded on it. */
  private readonly reading = new WeakMap<Socket, Inbound>();
  private maxHeaderBytes: number;
  /** The last response started on each socket: a refusal of a later pipelined request waits for it. */
  private readonly lastResponse = new WeakMap<Socket, ServerResponse>();
  /** Sockets whose refusal is under way: Node reports a parser error again for every later read. */
  private readonly refusing = new WeakSet<Socket>();
  private readonly budget: ConnectionBudget;
  private readonly handshakeRows = new HandshakeFailureBudget();
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
    this.commits = env.openWriter();
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
    this.server = tls
      ? https.createServer({ ...options, cert: tls.cert, key: tls.key, handshakeTimeout: rails.tlsHandshakeTimeoutMs }, handler)
      : http.createServer(options, handler);
    this.maxHeaderBytes = rails.maxHeaderBytes;
    this.server.maxHeadersCount = KEEP_EVERY_HEADER;
    // A client may close its sending side once its request is out and still read the answer (a
    // half-close). Node's default ends the socket at once, losing an answer not written yet (a
    // forwarded one always); allowed, the socket ends after the last answer instead.
    (this.server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
    this.budget = new ConnectionBudget(rails.maxConnections);
    this.server.on('connection', (socket: Socket) => this.budget.admit(socket));
    if (tls) {
      this.server.on('tlsClientError', (err: NodeJS.ErrnoException, socket: Socket) => this.onHandshakeFailure(err, socket));
    }
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
    this.maxHeaderBytes = rails.maxHeaderBytes;
    this.budget.setMax(rails.maxConnections);
    if (tls) setHandshakeTimeout(server as https.Server, rails.tlsHandshakeTimeoutMs);
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
    this.budget.busy(req.socket);
    this.lastResponse.set(req.socket, res);
    res.once('close', () => {
      this.budget.idle(req.socket);
      if (--this.inFlight > 0) return;
      this.closeRetired();
      for (const wake of this.idleWaiters.splice(0)) wake();
    });
    if (headerBlockBytes(req) > this.maxHeaderBytes) return this.refuseHeaderBlock(req, res);
    // Read once: the same path chooses the profile here, the kind in the judge and the forwarded path.
    const target = requestTarget(req.url ?? '/');
    const route = routeOfTarget(target, this.env.routes());
    const forwarder = route?.upstream ? this.forwarderFor(route.upstream) : null;
    const inbound = new Inbound(this.env, route, forwarder, this.commits, req, res, KEEP_EVERY_HEADER, target);
    this.reading.set(req.socket, inbound);
    req.once('end', () => {
      if (this.reading.get(req.socket) === inbound) this.reading.delete(req.socket);
    });
    inbound.begin();
  }

  private onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
    if (this.refusing.has(socket)) return;
    if (err.code?.startsWith('ERR_SSL_') || err.code?.startsWith('ERR_TLS_')) {
      // A TLS handshake that failed or stalled: no request was made; its row is onHandshakeFailure's.
      socket.destroy();
      return;
    }
    // The request whose body is arriving on this socket; once it is complete, an error is about the
    // next request pipelined behind it, which gets a row and an answer of its own.
    const current = this.reading.get(socket);
    const inbound = current && !current.complete ? current : undefined;
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE') {
      // The client went away: nobody to answer; record what it had sent.
      inbound?.clientLeft();
      socket.destroy();
      return;
    }
    if (err.code === 'HPE_INVALID_EOF_STATE') {
      // The client closed its side mid-request: mid-body, the Inbound records what arrived; mid-headers,
      // the request never became one, and its row says so.
      if (inbound) {
        inbound.clientLeft();
        socket.destroy();
        return;
      }
      const error = `the client closed the connection before its request's headers were complete (${socket.bytesRead} bytes received on the connection)`;
      this.refuseLater(socket, this.unparsed(socket, err), null, error);
      return;
    }
    const answer = proxyError(errorCodeFor(err), true);
    if (inbound) {
      inbound.failWhileReading(answer, describe(err), () => this.answerRaw(socket, answer));
      return;
    }
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' && (err as { rawPacket?: Buffer }).rawPacket === undefined) {
      // A connection that sent nothing was never a request: it is only cut. One that began a request
      // and stopped mid-headers (slowloris) gets a row, without the bytes (Node's parser holds them).
      if (socket.bytesRead === 0) return this.answerRaw(socket, answer);
      const error = `the request's headers were not complete within ${this.server.headersTimeout} ms (${socket.bytesRead} bytes received on the connection)`;
      this.refuseLater(socket, this.unparsed(socket, err), answer, error);
      return;
    }
    this.refuseLater(socket, this.unparsed(socket, err), answer, describe(err));
  }

  /** A request Node's parser refused before there was a request object: what its raw bytes tell. */
  private unparsed(socket: Socket, err: NodeJS.ErrnoException): Refused {
    const raw = (err as { rawPacket?: Buffer }).rawPacket ?? Buffer.alloc(0);
    return { ...requestLineOf(raw), headers: [], raw, remoteAddress: socket.remoteAddress ?? null };
  }

  /**
   * Records a refused request and then writes its answer (null: none, the client is gone) and closes.
   * Both wait for the responses to requests pipelined before it on the socket, so that those are
   * answered and recorded first, each as itself.
   */
  private refuseLater(socket: Socket, refused: Refused, answer: ProxyAnswer | null, error: string): void {
    this.refusing.add(socket);
    // From here the refusal owns the socket's end: a client that half-closed after its pipelined
    // requests would otherwise have Node end the socket before the refusal behind them is written.
    for (const listener of socket.listeners('end')) if (listener.name.includes('socketOnEnd')) socket.off('end', listener as () => void);
    this.afterResponses(socket, () =>
      recordRefused(this.env, this.commits, refused, answer, error, (recorded) => (recorded && answer ? this.answerRaw(socket, answer) : socket.destroy())),
    );
  }

  /** Runs `then` once the last response started on the socket is done (at once when there is none). */
  private afterResponses(socket: Socket, then: () => void): void {
    const last = this.lastResponse.get(socket);
    if (!last || last.writableFinished || last.destroyed) return then();
    let once = false;
    const run = (): void => {
      if (once) return;
      once = true;
      then();
    };
    last.once('finish', run);
    last.once('close', run);
  }

  /** Writes a refusal raw to the socket and closes it. */
  private answerRaw(socket: Socket, answer: ProxyAnswer): void {
    this.refusing.add(socket);
    // Like Node's own handler: write an answer only when no response has started on this socket, or
    // the bytes would corrupt it. `_httpMessage` is the response in flight (Node's internal).
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && (!inFlight || !inFlight.headersSent)) socket.end(rawResponse(answer));
    socket.destroySoon();
  }

  /** A header block over the limit, measured on the wire (Node counts less): refused whole, 431, with its row. */
  private refuseHeaderBlock(req: IncomingMessage, res: ServerResponse): void {
    const answer = proxyError('HEADERS_TOO_LARGE', true);
    const error = `${describe({ code: 'HPE_HEADER_OVERFLOW' } as NodeJS.ErrnoException)} (${headerBlockBytes(req)} bytes, over the limit of ${this.maxHeaderBytes}; ${req.rawHeaders.length / 2} headers)`;
    req.resume();
    recordRefused(this.env, this.commits, { ...refusedOf(req), headers: [] }, answer, error, (recorded) => {
      if (!recorded || res.destroyed) return void res.destroy();
      res.shouldKeepAlive = false;
      res.writeHead(answer.status, flattenHeaders(answer.headers));
      res.end(answer.body);
    });
  }

  /** A failed or stalled TLS handshake: a small row (rate-limited), then the connection is closed. */
  private onHandshakeFailure(err: NodeJS.ErrnoException, socket: Socket): void {
    socket.destroy();
    const { record, skipped } = this.handshakeRows.take();
    if (!record) return;
    const refused: Refused = { method: '', target: '/', headers: [], raw: new Uint8Array(), remoteAddress: socket.remoteAddress ?? null };
    recordRefused(this.env, this.commits, refused, null, handshakeError(err, skipped), () => {});
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
    await this.commits.close();
  }
}

/** tls.Server reads its handshake timeout from a symbol for each new connection (no public setter). */
function setHandshakeTimeout(server: https.Server, ms: number): void {
  const key = Object.getOwnPropertySymbols(server).find((k) => k.description === 'handshake-timeout');
  if (key) (server as unknown as Record<symbol, number>)[key] = ms;
}

function checkingIntervalOf(rails: GuardRails): number {
  return Math.max(50, Math.min(1_000, Math.floor(Math.min(rails.headersTimeoutMs, rails.requestTimeoutMs) / 4)));
}
