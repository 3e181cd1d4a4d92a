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
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ExchangeKind, Finding, HeaderList, ProxyFault } from '../../shared/model';
import { judge, redactCompletion, type JudgeOptions, type JudgingContext, type Judgment } from '../capture';
import { boundAnswerNotes } from '../capture/bounds';
import type { SandboxCall } from '../sandbox';
import type { ExchangeCompletion, NewExchange } from '../capture/new-exchange';
import { DEFAULT_CALLBACK_PREFIX } from '../protocol/callback-path';
import type { CaptureEnv } from './env';
import { jsonAnswer, proxyError, type ProxyAnswer } from './error-answers';
import { faultAnswer, faultError, faultFinding } from './faults';
import { flatten } from './headers';
import { bareRow, capturedRequest, type Arrival } from './inbound-rows';
import type { Forwarder } from './forward';
import { sinksTheWrite, type CaptureTx, type CaptureWriter } from '../store/contract/capture-writer';
import { forwardedTarget, requestTarget, targetFindings, wasNormalized, type RequestTarget } from './request-target';
import { unassignedReason, type ProfileRoute } from './routes';

/** After a 413, the rest of an oversized body is read and dropped up to this much, then the socket is cut. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

export type InboundState = 'receiving' | 'recording' | 'recorded' | 'answered';

type Response = { status: number; headers: HeaderList; body: Uint8Array };

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

const messageOf = (err: unknown): string => (err as Error | null)?.message ?? String(err);

export class Inbound {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private received = 0;
  private state: InboundState = 'receiving';
  /** Whether this request's row has been handed to a write: until then, a failure records a row of its own. */
  private rowQueued = false;
  private id = 0;
  private readonly at = new Date().toISOString();
  private readonly started = performance.now();
  /** The secrets the row was redacted with: the response is redacted with the same (no second look-up). */
  private secrets: readonly string[] | null = null;

  constructor(
    private readonly env: CaptureEnv,
    /** The profile whose prefix the path lies under; null: none (recorded unassigned, answered 404). */
    private readonly route: ProfileRoute | null,
    private readonly forwarder: Forwarder | null,
    private readonly commits: CaptureWriter,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    /** Node's maxHeadersCount: a request with this many headers may have had more, dropped. */
    private readonly maxHeadersCount: number,
    /** The target as read at the door: the same reading chose `route`. */
    private readonly target: RequestTarget = requestTarget(req.url ?? '/'),
  ) {}

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

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      const error = `internal error: ${messageOf(err)}`;
      // A bug or a failed write must not take the proxy down: end this exchange, keep serving. Before
      // its row exists, the row is written with the error, so the request is not lost from the log.
      if (!this.rowQueued) {
        this.env.onUnjudged(err);
        this.commitAnswered(this.bareRow(error), proxyError('INTERNAL_ERROR', true), error);
      } else if (!this.res.headersSent && !this.res.destroyed && this.id > 0) this.send(proxyError('INTERNAL_ERROR'), error);
      else this.res.destroy();
    }
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
      const error = unassignedReason(this.env.routes());
      this.commitAnswered(this.unjudgedRow(body, error), proxyError('NOT_FOUND'), error);
      return;
    }
    let judgment: Judgment;
    try {
      judgment = this.judged(body, false);
    } catch (err) {
      // A bug in judging: the row is still written (with what was received and the error), and answered 500.
      this.env.onUnjudged(err);
      const error = `internal error: the desk could not judge this request (${messageOf(err)})`;
      this.commitAnswered(this.unjudgedRow(body, error, true), proxyError('INTERNAL_ERROR', true), error);
      return;
    }
    const fault = this.faultFor(judgment);
    if (fault) judgment = { ...judgment, row: { ...judgment.row, findings: [...judgment.row.findings, faultFinding(fault, this.forwarder !== null)] } };
    if (this.forwarder) {
      const forwarder = this.forwarder;
      this.commit(judgment.row, () => (fault ? this.forwardFaulted(fault, forwarder, body) : this.forward(forwarder, body)));
    } else this.commitDecided(judgment, body, fault);
  }

  /** The fault this callback gets, if any (a fault never applies to what is not a callback). */
  private faultFor(judgment: Judgment): ProxyFault | null {
    const faults = this.env.faults;
    if (!faults || (judgment.kind !== 'pay' && judgment.kind !== 'results')) return null;
    try {
      return faults.take(judgment.kind);
    } catch {
      return null;
    }
  }

  /** Forward mode, the row committed: the fault decides whether and when the request goes upstream. */
  private forwardFaulted(fault: ProxyFault, forwarder: Forwarder, body: Buffer): void {
    const a = fault.action;
    if (a.type === 'delay') return this.afterDelay(a.ms, () => this.forward(forwarder, body));
    this.applyFault(fault);
  }

  /**
   * Runs `then` once the delay is over; a client that leaves meanwhile ends the exchange, recorded with
   * why (nothing is forwarded or decided for it).
   */
  private afterDelay(ms: number, then: () => void): void {
    let waiting = true;
    const timer = setTimeout(() => {
      waiting = false;
      this.guard(then);
    }, ms);
    this.res.once('close', () => {
      if (!waiting) return;
      waiting = false;
      clearTimeout(timer);
      this.guard(() => this.record({ response: null, error: `the client closed the connection during the fault's ${ms} ms delay` }));
    });
  }

  /** A fault that replaces the answer: a status of its own, no answer (held), or a reset. Recorded first. */
  private applyFault(fault: ProxyFault): void {
    const a = fault.action;
    if (a.type === 'status') return this.send(faultAnswer({ ...fault, action: a }), null);
    this.state = 'answered';
    this.recordNow(null, faultError(fault), () => (a.type === 'reset' ? this.reset() : this.hold()));
  }

  /** No answer until the client gives up, or the proxy's request timeout cuts it. */
  private hold(): void {
    const timer = setTimeout(() => this.res.destroy(), this.env.faultHoldMs ?? 30_000);
    this.res.once('close', () => clearTimeout(timer));
  }

  /** Cuts the connection with a TCP reset (RST), as a crashed operator would. */
  private reset(): void {
    const socket = this.req.socket as typeof this.req.socket & { resetAndDestroy?: () => void };
    if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else socket.destroy();
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

  /** A request that never arrived whole: recorded (redacted), not judged. */
  private unjudgedRow(body: Buffer, error: string, counted = false): NewExchange {
    try {
      return this.judged(body, false, { unjudged: true }).row;
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

  /** Runs once the row is committed: the request goes upstream and the answer is relayed. */
  private forward(forwarder: Forwarder, body: Buffer): void {
    forwarder.forward(
      {
        method: this.req.method ?? 'GET',
        target: forwardedTarget(this.target),
        normalized: wasNormalized(this.target),
        rawHeaders: this.req.rawHeaders,
        body,
      },
      this.res,
      { timeoutMs: this.env.upstreamTimeoutMs, maxStoredBytes: this.env.maxBodyBytes },
      (outcome) =>
        this.guard(() => {
          if (outcome.findings.length > 0) this.addFindings(outcome.findings);
          if (outcome.unsent && outcome.response) this.send(outcome.response, outcome.error);
          else if (outcome.release) this.recordThenRelease(outcome, outcome.release);
          else this.record(outcome);
        }),
    );
  }

  /**
   * Sandbox mode: the row, the sandbox's decision (its books, its findings) and the recorded answer are
   * written in ONE transaction of the group commit, and the answer goes out once that is committed. All
   * or nothing: an answer that could not be made durable is never sent, and its row is not half-written.
   * The sandbox reads the body from the judge's parse, not a second one.
   */
  private commitDecided(judgment: Judgment, body: Buffer, fault: ProxyFault | null): void {
    const { row } = judgment;
    if (fault && fault.action.type !== 'delay') {
      // The sandbox is not asked (its books stay as they are): the row is committed, then the fault applies.
      this.commit(row, () => this.applyFault(fault));
      return;
    }
    const call: SandboxCall = {
      kind: callbackKind(judgment.kind),
      method: this.req.method ?? 'GET',
      body,
      read: judgment.read,
      verdict: row.signature?.verdict ?? null,
      secretConfigured: this.route?.candidates().some((c) => c.primary) ?? false,
      book: this.route?.profile ?? '',
      at: this.at,
      secrets: this.secrets ?? [],
    };
    if (fault?.action.type === 'delay') {
      // As a slow operator: the row is committed now, the sandbox decides when the delay is over, and the
      // recorded duration includes the wait.
      const ms = fault.action.ms;
      this.commit(row, () => this.afterDelay(ms, () => this.decideLater(call)));
      return;
    }
    this.rowQueued = true;
    this.commits.write(
      (tx) => {
        const decided = this.decide(tx, call);
        // Recorded with the row, not through addFindings (which bounds them): a depositId a hostile body
        // made long is quoted in these notes, so they get the same bound here.
        const id = tx.rows.record(decided.findings.length > 0 ? { ...row, findings: [...row.findings, ...boundAnswerNotes(decided.findings)] } : row);
        tx.rows.finish(id, this.completion(decided.answer, decided.error));
        return { id, answer: decided.answer };
      },
      (err, out) => {
        if (err !== null || out === undefined) return this.dropped(err);
        this.recorded(out.id);
        this.guard(() => this.write(out.answer));
      },
    );
  }

  /** Sandbox mode, the row already committed: the decision and its recorded answer in one write, then the answer. */
  private decideLater(call: SandboxCall): void {
    const id = this.id;
    this.commits.write(
      (tx) => {
        const decided = this.decide(tx, call);
        if (decided.findings.length > 0) tx.rows.addFindings(id, decided.findings);
        tx.rows.finish(id, this.completion(decided.answer, decided.error));
        return decided.answer;
      },
      (err, answer) => {
        if (err !== null || answer === undefined) return this.dropped(err);
        this.guard(() => this.write(answer));
      },
    );
  }

  /** The sandbox's answer; a bug in it answers 500 (recorded), a storage failure sinks the whole write. */
  private decide(tx: CaptureTx, call: SandboxCall): { answer: ProxyAnswer; findings: Finding[]; error: string | null } {
    try {
      const decided = tx.sandbox(call);
      return {
        answer: jsonAnswer(decided.answer.status, decided.answer.body, decided.answer.headers ?? []),
        findings: decided.findings,
        error: null,
      };
    } catch (err) {
      if (sinksTheWrite(err)) throw err;
      return { answer: proxyError('INTERNAL_ERROR'), findings: [], error: `internal error: ${messageOf(err)}` };
    }
  }

  private body(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.kept);
  }

  private recorded(id: number): void {
    this.id = id;
    this.state = 'recorded';
    this.env.onCaptureStored();
  }

  /** Commits the row with the next group, then runs `then`; on failure the request is answered 503. */
  private commit(row: NewExchange, then: () => void): void {
    this.rowQueued = true;
    this.commits.write(
      (tx) => tx.rows.record(row),
      (err, id) => {
        if (err !== null || id === undefined) return this.dropped(err);
        this.recorded(id);
        this.guard(then);
      },
    );
  }

  /** A request refused before it was judged: its row and the refusal in one write of the group, then the answer. */
  private commitAnswered(row: NewExchange, answer: ProxyAnswer, error: string | null): void {
    this.rowQueued = true;
    this.commits.write(
      (tx) => {
        const id = tx.rows.record(row);
        tx.rows.finish(id, this.completion(answer, error));
        return id;
      },
      (err, id) => {
        if (err !== null || id === undefined) return this.dropped(err);
        this.recorded(id);
        this.guard(() => this.write(answer));
      },
    );
  }

  /**
   * Nothing unrecorded is acknowledged or forwarded: a request whose row could not be committed is
   * answered 503 (the platform retries a callback so answered), and counted in the status.
   */
  private dropped(err: unknown): void {
    this.state = 'answered';
    this.env.onCaptureFailure(err);
    if (this.res.headersSent || this.res.destroyed) return void this.res.destroy();
    const answer = proxyError('CAPTURE_NOT_STORED', true);
    this.res.writeHead(answer.status, flatten(answer.headers));
    this.res.end(answer.body);
  }

  private addFindings(findings: Finding[]): void {
    const id = this.id;
    this.commits.write((tx) => tx.rows.addFindings(id, findings), undefined, 0);
  }

  /** The proxy's own answer (errors): recorded first, then sent, so the record is there when the client reads it. */
  private send(answer: ProxyAnswer, error: string | null): void {
    this.state = 'answered';
    this.recordNow(answer, error, () => this.write(answer));
  }

  /**
   * Records the end of the committed request (the proxy's own answer, or none) at once where the engine
   * can, then runs `then`. The row is durable already: should this record fail, `then` still runs.
   */
  private recordNow(answer: ProxyAnswer | null, error: string | null, then: () => void): void {
    const id = this.id;
    const completion = this.completion(answer, error);
    this.commits.writeNow(
      (tx) => tx.rows.finish(id, completion),
      (err) => {
        if (err !== null) this.env.onCaptureFailure(err);
        this.guard(then);
      },
      0,
    );
  }

  private write(answer: ProxyAnswer): void {
    this.state = 'answered';
    if (this.res.destroyed) return;
    this.res.writeHead(answer.status, flatten(answer.headers));
    this.res.end(answer.body);
  }

  /**
   * What is stored of an answer: an upstream may echo a stored secret in its headers or body. When the
   * secrets cannot be read, only the status is kept (nothing that could hold one in clear).
   */
  private completion(response: Response | null, error: string | null): ExchangeCompletion {
    const completion: ExchangeCompletion = {
      response,
      error,
      durationMs: Math.round((performance.now() - this.started) * 1000) / 1000,
      completedAt: new Date().toISOString(),
    };
    try {
      return redactCompletion(completion, (this.secrets ??= this.env.secrets()));
    } catch {
      // The secrets cannot be read: only the answer's status is kept, and the error (the desk's own words).
      return { ...completion, response: response && { status: response.status, headers: [], body: new Uint8Array() } };
    }
  }

  /**
   * A relayed answer held back by its last chunk: its record is committed with the next group, and only
   * then does the caller get the rest. An answer whose record could not be written is cut off, as a
   * request whose row could not be written is.
   */
  private recordThenRelease(outcome: { response: Response | null; error: string | null }, release: () => void): void {
    this.recordRelayed(outcome, (err) => {
      if (err !== null) {
        this.env.onCaptureFailure(err);
        this.res.destroy();
      } else this.guard(release);
    });
  }

  /** Records the end of an exchange whose answer is already out (a relayed one), with the next group. */
  private record(outcome: { response: Response | null; error: string | null }): void {
    this.recordRelayed(outcome, (err) => {
      // The answer is out and the request row is durable; only the response record is lost (the desk closing, say).
      if (err !== null) this.env.onCaptureFailure(err);
    });
  }

  /** Writes a relayed answer's record with the next group; `committed` learns how that went. */
  private recordRelayed(outcome: { response: Response | null; error: string | null }, committed: (err: unknown) => void): void {
    this.state = 'answered';
    const id = this.id;
    const completion = this.completion(outcome.response, outcome.error);
    this.commits.write((tx) => tx.rows.finish(id, completion), committed, 0);
  }
}

/** The sandbox answers the callbacks; the token path and anything else are not its to answer. */
function callbackKind(kind: ExchangeKind): SandboxCall['kind'] {
  return kind === 'pay' || kind === 'results' ? kind : 'other';
}
