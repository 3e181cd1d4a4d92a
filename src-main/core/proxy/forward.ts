// Forward mode: the committed request goes to the upstream (the operator's real server) byte for byte,
// and the upstream's status, headers and body come back to the caller unchanged. Connections to the
// upstream are kept alive and reused, which is most of a forwarding proxy's throughput.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Finding, HeaderList } from '../../shared/model';
import { proxyError, type ProxyAnswer } from './error-answers';
import { upstreamPath } from './forward-path';
import { toPairs } from '../outbound/headers';
import { clientResponseHeaders, upstreamRequestHeaders } from './headers';

export interface ForwardRequest {
  method: string;
  /** Path and query (origin form), the path as the door read it (the reading that chose the profile). */
  target: string;
  /** Whether the door read the path otherwise than it was written (dot or empty segments). */
  normalized?: boolean;
  /** rawHeaders of the inbound request. */
  rawHeaders: readonly string[];
  body: Buffer;
}

export interface ForwardOutcome {
  /** What the caller was sent (the upstream's answer, or the proxy's 502/504), or null when nothing was. */
  response: { status: number; headers: HeaderList; body: Buffer } | null;
  error: string | null;
  findings: Finding[];
  /**
   * True when `response` is the proxy's own error answer, NOT sent yet: the caller records it first
   * and then sends it, so that its record is there by the time the client reads it.
   */
  unsent?: boolean;
  /**
   * Present when the upstream's answer was relayed but for its last chunk (and its end): the caller
   * commits the record of the answer, then calls this to let the caller have the whole answer. So a
   * client never holds a complete answer whose record could still be lost.
   */
  release?: () => void;
}

export interface ForwardLimits {
  timeoutMs: number;
  /** Bytes of the upstream's response body kept in the record (the caller always gets all of it). */
  maxStoredBytes: number;
}

export class Forwarder {
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;
  private readonly hostname: string;
  private readonly port: number;
  private readonly hostHeader: string;
  private readonly basePath: string;

  constructor(readonly upstream: URL) {
    const secure = upstream.protocol === 'https:';
    this.transport = secure ? https : http;
    // lifo reuses the warmest socket; the short free-socket timeout drops connections before a typical
    // server (Node's default: 5 s) closes them under us.
    const agentOptions = { keepAlive: true, scheduling: 'lifo' as const, timeout: 4_000 };
    this.agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    this.hostname = upstream.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = upstream.port ? Number(upstream.port) : secure ? 443 : 80;
    this.hostHeader = upstream.host;
    this.basePath = upstream.pathname.replace(/\/+$/, '');
  }

  /** Sends the request and relays the answer into `res`; calls `done` once, when the exchange is over. */
  forward(request: ForwardRequest, res: ServerResponse, limits: ForwardLimits, done: (outcome: ForwardOutcome) => void): void {
    const upstream = upstreamPath(this.basePath, request.target);
    const path = upstream.path;
    const pathFindings: Finding[] =
      upstream.normalized || request.normalized === true
        ? [
            {
              level: 'warning',
              path: '$',
              message: `the request target was forwarded normalized, as ${JSON.stringify(path)} (dot segments resolved, empty segments dropped)`,
            },
          ]
        : [];
    const headers = upstreamRequestHeaders(request.rawHeaders, this.hostHeader, request.method, request.body.length);
    let finished = false;
    let relaying = false;
    let current: http.ClientRequest | null = null;

    const finish = (outcome: ForwardOutcome): void => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      done(pathFindings.length > 0 ? { ...outcome, findings: [...pathFindings, ...outcome.findings] } : outcome);
    };
    const answerError = (answer: ProxyAnswer, error: string): void => finish({ response: answer, error, findings: [], unsent: true });

    const deadline = setTimeout(() => {
      const error = `the upstream did not answer within ${limits.timeoutMs} ms`;
      current?.destroy();
      if (relaying) {
        res.destroy();
        finish({ response: null, error: `${error} (the body was cut mid-way)`, findings: [] });
      } else answerError(proxyError('UPSTREAM_TIMEOUT'), error);
    }, limits.timeoutMs);

    const attempt = (retry: boolean): void => {
      let upReq: http.ClientRequest;
      try {
        upReq = this.transport.request({
          agent: this.agent,
          hostname: this.hostname,
          port: this.port,
          method: request.method,
          path,
          headers,
          setHost: false,
        });
      } catch (err) {
        answerError(proxyError('UPSTREAM_UNREACHABLE'), `the request could not be sent upstream: ${(err as Error).message}`);
        return;
      }
      current = upReq;
      upReq.on('response', (upRes) => this.relay(upRes, res, limits, () => (relaying = true), finish));
      upReq.on('error', (err: NodeJS.ErrnoException) => {
        if (finished || relaying) return;
        // A pooled connection the upstream had just closed: the request never reached it, so one retry
        // on a fresh connection is safe (Node's documented pattern for keep-alive agents).
        if (retry && upReq.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
          attempt(false);
          return;
        }
        answerError(proxyError('UPSTREAM_UNREACHABLE'), `the upstream is unreachable: ${err.message}`);
      });
      upReq.end(request.body);
    };
    attempt(true);
  }

  private relay(upRes: IncomingMessage, res: ServerResponse, limits: ForwardLimits, started: () => void, finish: (outcome: ForwardOutcome) => void): void {
    const status = upRes.statusCode ?? 502;
    const received = toPairs(upRes.rawHeaders);
    try {
      // The upstream's headers go out as they came: no Date of our own added.
      res.sendDate = false;
      res.writeHead(status, upRes.statusMessage, clientResponseHeaders(upRes.rawHeaders));
    } catch (err) {
      upRes.destroy();
      res.sendDate = true;
      finish({
        response: proxyError('UPSTREAM_UNREACHABLE'),
        error: `the upstream's answer cannot be relayed: ${(err as Error).message}`,
        findings: [],
        unsent: true,
      });
      return;
    }
    started();
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let total = 0;
    // The newest chunk is held back (writeHead only stores the head; nothing is sent before a write):
    // the last one goes out with the end, once the answer's record is committed.
    let held: Buffer | null = null;
    upRes.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (keptBytes < limits.maxStoredBytes) {
        const room = limits.maxStoredBytes - keptBytes;
        const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
        kept.push(part);
        keptBytes += part.length;
      }
      const previous = held;
      held = chunk;
      if (previous && !res.write(previous) && !res.destroyed) {
        upRes.pause();
        res.once('drain', () => upRes.resume());
      }
    });
    // A caller that went away must not stall the upstream: read on, so the answer is still recorded.
    res.once('close', () => upRes.resume());
    const record = (error: string | null, release?: () => void): void => {
      const findings: Finding[] =
        total > keptBytes
          ? [{ level: 'info', path: '$', message: `the response body (${total} bytes) is stored cut at ${keptBytes} bytes; the caller got all of it` }]
          : [];
      const response = { status, headers: received, body: kept.length === 1 ? kept[0]! : Buffer.concat(kept, keptBytes) };
      finish(release ? { response, error, findings, release } : { response, error, findings });
    };
    upRes.on('end', () => record(null, () => (held ? res.end(held) : res.end())));
    upRes.on('error', () => {});
    upRes.on('close', () => {
      if (upRes.complete) return;
      res.destroy();
      record('the upstream closed the connection before its response was complete');
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
