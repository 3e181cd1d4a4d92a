// The capture proxy's HTTP server: any method, any path, each request handed to an Inbound. The guard
// rails live here: timeouts for headers, whole requests and idle connections, a header size limit,
// and a clientError handler that answers a request Node's parser refused, so one bad client never
// stops the server.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { CaptureEnv, GuardRails } from './env';
import { proxyError, rawResponse, type ProxyErrorCode } from './error-answers';
import { Checkpointer } from './checkpointer';
import { Forwarder } from './forward';
import { GroupCommit } from './group-commit';
import { Inbound } from './inbound';

/** How long stop() lets exchanges in flight finish before it cuts their connections. */
const CLOSE_GRACE_MS = 2_000;

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
  private readonly forwarder: Forwarder | null;
  private readonly commits: GroupCommit;
  private checkpointer: Checkpointer | null = null;
  /** The request whose body is being read on each socket, so a parser failure can be recorded on it. */
  private readonly reading = new WeakMap<Socket, Inbound>();
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];

  private constructor(
    private readonly env: CaptureEnv,
    rails: GuardRails,
  ) {
    this.forwarder = env.upstream ? new Forwarder(env.upstream) : null;
    this.commits = new GroupCommit(env.db);
    this.server = http.createServer(
      {
        maxHeaderSize: rails.maxHeaderBytes,
        // Node refuses a headers timeout longer than the request timeout; the headers are part of the request.
        headersTimeout: Math.min(rails.headersTimeoutMs, rails.requestTimeoutMs),
        requestTimeout: rails.requestTimeoutMs,
        keepAliveTimeout: rails.keepAliveTimeoutMs,
        // Node checks the two timeouts above on this period (default 30 s, far too coarse for them).
        connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(Math.min(rails.headersTimeoutMs, rails.requestTimeoutMs) / 4))),
        noDelay: true,
        // Node would answer a Host-less HTTP/1.1 request 400 on its own, before it could be recorded;
        // the proxy records it and, forwarding, sends the upstream's Host anyway.
        requireHostHeader: false,
      },
      (req, res) => this.onRequest(req, res),
    );
    this.server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => this.onClientError(err, socket));
  }

  static listen(env: CaptureEnv, rails: GuardRails, host: string, port: number): Promise<CaptureServer> {
    const capture = new CaptureServer(env, rails);
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => {
        capture.forwarder?.close();
        reject(err);
      };
      capture.server.once('error', onError);
      capture.server.listen({ host, port, exclusive: true }, () => {
        capture.server.off('error', onError);
        capture.checkpointer = Checkpointer.start(env.db, env.nativeBinding);
        resolve(capture);
      });
    });
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address !== null ? address.port : 0;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    this.inFlight++;
    res.once('close', () => {
      if (--this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    });
    const inbound = new Inbound(this.env, this.forwarder, this.commits, req, res);
    this.reading.set(req.socket, inbound);
    req.once('end', () => {
      if (this.reading.get(req.socket) === inbound) this.reading.delete(req.socket);
    });
    inbound.begin();
  }

  private onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || err.code === 'HPE_INVALID_EOF_STATE') {
      // The client went away (mid-body, for EOF): nobody to answer; record what it had sent.
      this.reading.get(socket)?.clientLeft();
      socket.destroy();
      return;
    }
    const answer = proxyError(errorCodeFor(err), true);
    const inbound = this.reading.get(socket);
    inbound?.failWhileReading(answer, describe(err));
    // Like Node's own handler: write an answer only when no response has started on this socket, or
    // the bytes would corrupt it. `_httpMessage` is the response in flight (Node's internal).
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && (!inFlight || !inFlight.headersSent)) socket.end(rawResponse(answer));
    socket.destroySoon();
  }

  /** Stops listening, lets exchanges in flight finish (a short grace), then cuts what is left. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    if (this.inFlight > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => this.idleWaiters.push(resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS))),
      ]);
      clearTimeout(timer);
    }
    this.server.closeAllConnections();
    await closed;
    this.forwarder?.close();
    // Responses recorded in the last turn are still queued: write them before the desk closes the database.
    this.commits.close();
    await this.checkpointer?.stop();
  }
}
