// One captured request, from its first body byte to its recorded response, as a lifecycle with named
// states (as mockttp names OngoingRequest and CompletedRequest):
//
//   receiving  the body is arriving; no row exists. Anything that ends the request here (the body
//              complete, over the limit, the client gone, a parser failure, a bug) records a row.
//   recording  the row is built (judged, redacted) and queued in the group commit; no answer yet.
//   recorded   the row is durable (its id known): from here every path records on it, then answers.
//   answered   the answer is out (or the connection cut); the response record follows.
//
// The order is the promise the proxy makes: read the body (up to the limit), judge it (capture/judge),
// COMMIT the row, and only then answer or forward. Rows go through the group commit (one transaction
// per turn of the event loop): in sandbox mode the row, the decision and the answer share one; a relayed
// answer is held back by its last chunk until its record is committed with the next group; a request refused before it is judged (413, HTTP/0.9) has its
// row and its refusal in one write. Two writes go out through `writeNow`, because the answer goes out
// right after them: the record of the proxy's own answer to a committed request (502, 504, 500, a
// fault's: recordNow) and the row of a parser failure mid-body (failWhileReading). SQLite commits those
// at once; PostgreSQL with the next group. A row that cannot be committed is answered 503, never 2XX.
//
// This file is the first step, receive and judge; the writes and answers every step shares are in
// inbound-record.ts, and the steps that answer are sandbox-step.ts, forward-step.ts and fault-step.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Finding } from '../../shared/model';
import { judge, type JudgeOptions, type JudgingContext, type Judgment } from '../capture';
import type { NewExchange } from '../capture/new-exchange';
import { DEFAULT_CALLBACK_PREFIX } from '../protocol/callback-path';
import type { CaptureEnv } from './env';
import { proxyError, type ProxyAnswer } from './error-answers';
import { faultFinding } from './faults';
import { faultFor } from './fault-step';
import { forwardCommitted } from './forward-step';
import { bareRow, capturedRequest, type Arrival } from './inbound-rows';
import { InboundRecord, messageOf } from './inbound-record';
import type { Forwarder } from './forward';
import type { CaptureWriter } from '../store/contract/capture-writer';
import { requestTarget, targetFindings, type RequestTarget } from './request-target';
import { unassignedReason, type ProfileRoute } from './routes';
import { answerInSandbox } from './sandbox-step';

export type { InboundState } from './inbound-record';

/** After a 413, the rest of an oversized body is read and dropped up to this much, then the socket is cut. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

export class Inbound extends InboundRecord {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private received = 0;

  constructor(
    env: CaptureEnv,
    /** The profile whose prefix the path lies under; null: none (recorded unassigned, answered 404). */
    private readonly route: ProfileRoute | null,
    private readonly forwarder: Forwarder | null,
    commits: CaptureWriter,
    req: IncomingMessage,
    res: ServerResponse,
    /** Node's maxHeadersCount: a request with this many headers may have had more, dropped. */
    private readonly maxHeadersCount: number,
    /** The target as read at the door: the same reading chose `route`. */
    private readonly target: RequestTarget = requestTarget(req.url ?? '/'),
  ) {
    super(env, commits, req, res);
  }

  /** Whether the whole request has been read: a parser error on its socket is then about the next request. */
  get complete(): boolean {
    return this.req.complete;
  }

  begin(): void {
    this.req.on('data', (chunk: Buffer) => this.guard(() => this.onData(chunk)));
    this.req.on('end', () => this.guard(() => this.onEnd()));
    this.req.on('error', () => {});
    this.req.on('close', () => this.guard(() => this.clientLeft()));
  }

  /**
   * The connection failed while the body was arriving (bad framing, request timeout): records the row
   * with the answer the server is about to write raw to the socket. Does nothing once the row exists
   * (the request is past receiving, and the failure is not about it).
   */
  failWhileReading(answer: ProxyAnswer, error: string, then: () => void): void {
    if (this.state !== 'receiving') return then();
    // The server writes the answer raw once `then` runs: the row and its answer must be durable first
    // (committed at once where the engine can, so the answer leaves in this same turn).
    this.state = 'recording';
    this.rowQueued = true;
    const row = this.unjudgedRow(this.body(), error);
    const completion = this.completion(answer, error);
    this.commits.writeNow(
      (tx) => {
        const id = tx.rows.record(row);
        tx.rows.finish(id, completion);
        return id;
      },
      (err, id) => {
        this.state = 'answered';
        // The answer is a refusal, never an acknowledgment: it goes out even when its row could not be written.
        if (err !== null || id === undefined) this.env.onCaptureFailure(err);
        else this.id = id;
        then();
      },
    );
  }

  /** The connection closed before the body was complete: records what arrived, with the reason. */
  clientLeft(): void {
    if (this.state !== 'receiving' || this.req.complete) return;
    const expected = headerValue(this.req, 'content-length');
    const of = expected !== undefined ? ` of ${expected}` : '';
    const error = `the client closed the connection after ${this.received}${of} body bytes, before the request was complete`;
    this.commit(this.unjudgedRow(this.body(), error), () => this.record({ response: null, error }));
  }

  private onData(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.state !== 'receiving') {
      if (this.received > MAX_DISCARD_BYTES) this.req.socket.destroy();
      return;
    }
    const room = this.env.maxBodyBytes - this.kept;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
      return;
    }
    if (room > 0) {
      this.chunks.push(chunk.subarray(0, room));
      this.kept += room;
    }
    // Over the limit: keep what fits, commit the row as truncated, answer 413 at once, read and drop the rest.
    const finding: Finding = {
      level: 'error',
      path: '$',
      message: `the body is larger than the limit of ${this.env.maxBodyBytes} bytes: it was cut and answered 413`,
    };
    const { row } = this.judged(this.body(), true, { findings: [finding] });
    this.commitAnswered(row, proxyError('PAYLOAD_TOO_LARGE', true), null);
  }

  private onEnd(): void {
    if (this.state !== 'receiving') return;
    const body = this.body();
    if (this.req.httpVersionMajor === 0) {
      // Node's parser takes a request line without a version as HTTP/0.9, which has no status line or
      // headers to answer with: recorded and refused like any malformed request, whatever the mode.
      const error = 'the request line has no HTTP version (HTTP/0.9), which the proxy does not serve';
      this.commitAnswered(this.unjudgedRow(body, error), proxyError('BAD_REQUEST', true), error);
      return;
    }
    if (this.target.ambiguity !== null) {
      // A path servers read in different ways: no profile, kind or upstream could be sure to be its own.
      const error = `the request target's path holds ${this.target.ambiguity}`;
      this.commitAnswered(this.unjudgedRow(body, error), proxyError('BAD_REQUEST'), error);
      return;
    }
    if (this.route === null) {
      // Nobody's callback: recorded (not judged: whose secret would judge it?) and refused by the desk.
      // The body is whole, so its key fields are read: the lists say which deposit it was about.
      const error = unassignedReason(this.env.routes());
      this.commitAnswered(this.unjudgedRow(body, error, { keysRead: true }), proxyError('NOT_FOUND'), error);
      return;
    }
    let judgment: Judgment;
    try {
      judgment = this.judged(body, false);
    } catch (err) {
      // A bug in judging: the row is still written (with what was received and the error), and answered 500.
      this.env.onUnjudged(err);
      const error = `internal error: the desk could not judge this request (${messageOf(err)})`;
      this.commitAnswered(this.unjudgedRow(body, error, { counted: true }), proxyError('INTERNAL_ERROR', true), error);
      return;
    }
    const fault = faultFor(this.env, judgment);
    if (fault) judgment = { ...judgment, row: { ...judgment.row, findings: [...judgment.row.findings, faultFinding(fault, this.forwarder !== null)] } };
    if (this.forwarder) {
      const forwarder = this.forwarder;
      this.commit(judgment.row, () => forwardCommitted(this, forwarder, this.target, body, fault));
    } else answerInSandbox(this, this.route, judgment, body, fault);
  }

  private judged(body: Buffer, truncated: boolean, options: JudgeOptions = {}): Judgment {
    const secrets = (this.secrets = this.env.secrets());
    const atDoor = targetFindings(this.target);
    const judgment = judge(
      capturedRequest(this.arrival(), body, truncated),
      { candidates: options.unjudged || this.route === null ? [] : this.route.candidates(), secrets, ...this.judgedUnder() },
      atDoor.length > 0 ? { ...options, findings: [...atDoor, ...(options.findings ?? [])] } : options,
    );
    this.state = 'recording';
    return judgment;
  }

  /** The profile, its callback prefix and amounts, as the judge takes them. */
  private judgedUnder(): Pick<JudgingContext, 'callbackPrefix' | 'amounts' | 'profile'> {
    const route = this.route;
    if (route === null) return { callbackPrefix: DEFAULT_CALLBACK_PREFIX };
    return { callbackPrefix: route.settings.prefix, amounts: route.settings.amounts, profile: route.profile };
  }

  /**
   * A request recorded (redacted), not judged: it never arrived whole, or nobody can judge it. `counted`:
   * the judge's failure was counted already; `keysRead`: the body is whole, and its key fields are read.
   */
  private unjudgedRow(body: Buffer, error: string, { counted = false, keysRead = false }: { counted?: boolean; keysRead?: boolean } = {}): NewExchange {
    try {
      return this.judged(body, false, { unjudged: true, keysRead }).row;
    } catch (err) {
      if (!counted) this.env.onUnjudged(err);
      return this.bareRow(`${error}; internal error: ${messageOf(err)}`);
    }
  }

  private bareRow(error: string): NewExchange {
    this.state = 'recording';
    return bareRow(this.arrival(), error);
  }

  private arrival(): Arrival {
    return { req: this.req, at: this.at, path: this.target.received, query: this.target.query, received: this.received, maxHeadersCount: this.maxHeadersCount };
  }

  private body(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.kept);
  }

  protected rowOfFailure(error: string): NewExchange {
    return this.bareRow(error);
  }
}
