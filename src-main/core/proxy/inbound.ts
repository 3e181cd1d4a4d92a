// One captured request, from its first body byte to its recorded response. The order is the promise
// the proxy makes: read the body (up to the limit), judge it (signature, findings, key fields), COMMIT
// the row, and only then answer or forward. Whatever the caller gets, the row that describes it was
// durable before the first byte of the answer left. Rows go through the group commit (one transaction
// per turn of the event loop): in sandbox mode the row, the decision and the answer share one; a
// relayed answer is recorded with the next group; a request refused before it is judged (413, HTTP/0.9)
// has its row and its refusal in one write. Two writes commit at once, outside the group, because the
// answer goes out right after them: the record of an error answer to a committed request (502, 504,
// 500: recordAnswer) and the row of a parser failure mid-body (failWhileReading).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Finding, HeaderList, KeyFields, SignatureReport } from '../../shared/model';
import { inspectCapture, kindOfPath, NO_KEY_FIELDS } from '../protocol';
import { MIN_REDACTED_SECRET, redactHeaders } from '../redact';
import { checkSignature, SIGNATURE_HEADER, type SecretCandidate } from '../signing';
import type { SandboxCall } from '../sandbox';
import type { ExchangeCompletion, NewExchange } from '../store';
import type { CaptureEnv } from './env';
import { jsonAnswer, proxyError, type ProxyAnswer } from './error-answers';
import { flatten, toPairs } from './headers';
import type { Forwarder } from './forward';
import type { GroupCommit } from './group-commit';

/** After a 413, the rest of an oversized body is read and dropped up to this much, then the socket is cut. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

export class Inbound {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private received = 0;
  /** reading: body still arriving; committed: the row exists (from then on, every path records on it). */
  private state: 'reading' | 'committed' = 'reading';
  private id = 0;
  private readonly at = new Date().toISOString();
  private readonly started = performance.now();
  private readonly path: string;
  private readonly query: string;
  private readonly kind: ReturnType<typeof kindOfPath>;

  constructor(
    private readonly env: CaptureEnv,
    private readonly forwarder: Forwarder | null,
    private readonly commits: GroupCommit,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    this.path = q < 0 ? url : url.slice(0, q);
    this.query = q < 0 ? '' : url.slice(q + 1);
    this.kind = kindOfPath(this.path);
  }

  begin(): void {
    this.req.on('data', (chunk: Buffer) => this.guard(() => this.onData(chunk)));
    this.req.on('end', () => this.guard(() => this.onEnd()));
    this.req.on('error', () => {});
    this.req.on('close', () => this.guard(() => this.clientLeft()));
  }

  /**
   * The connection failed while the body was arriving (bad framing, request timeout): records the row
   * with the answer the server is about to write raw to the socket. Does nothing once the row is
   * committed (the request is past reading, and the failure is not about it).
   */
  failWhileReading(answer: ProxyAnswer, error: string): void {
    if (this.state !== 'reading') return;
    // The server writes the answer as soon as this returns: the row must be durable now, not next turn.
    if (this.commitNow(this.row(this.body(), false, null, [], error))) this.recordAnswer(answer, error);
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      // A bug or a failed write must not take the proxy down: end this exchange, keep serving.
      if (!this.res.headersSent && !this.res.destroyed && this.id > 0) {
        this.send(proxyError('INTERNAL_ERROR'), `internal error: ${(err as Error).message}`);
      } else this.res.destroy();
    }
  }

  private onData(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.state !== 'reading') {
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
    const signature: SignatureReport = {
      verdict: null,
      notes: [`The body was cut at ${this.env.maxBodyBytes} bytes, so its signature could not be checked.`],
      diagnosis: null,
    };
    this.commitAnswered(this.row(this.body(), true, signature, [finding], null), proxyError('PAYLOAD_TOO_LARGE', true), null);
  }

  private onEnd(): void {
    if (this.state !== 'reading') return;
    const body = this.body();
    if (this.req.httpVersionMajor === 0) {
      // Node's parser takes a request line without a version as HTTP/0.9, which has no status line or
      // headers to answer with: recorded and refused like any malformed request, whatever the mode.
      const error = 'the request line has no HTTP version (HTTP/0.9), which the proxy does not serve';
      this.commitAnswered(this.row(body, false, null, [], error), proxyError('BAD_REQUEST', true), error);
      return;
    }
    const header = headerValue(this.req, SIGNATURE_HEADER);
    const candidates = this.env.candidates();
    // A signature applies to the callbacks, and to anything else that carries one.
    const signature = this.kind !== 'other' || header !== undefined ? checkSignature(body, header, candidates) : null;
    const { findings, keys } = inspectCapture(this.kind, body);
    const row = this.row(body, false, signature, findings, null, keys, candidates);
    if (this.forwarder) this.commit(row, () => this.forward(this.forwarder!, body));
    else this.commitDecided(row, body, signature, candidates);
  }

  /** Runs once the row is committed: the request goes upstream and the answer is relayed. */
  private forward(forwarder: Forwarder, body: Buffer): void {
    forwarder.forward(
      { method: this.req.method ?? 'GET', target: this.req.url ?? '/', rawHeaders: this.req.rawHeaders, body },
      this.res,
      { timeoutMs: this.env.upstreamTimeoutMs, maxStoredBytes: this.env.maxBodyBytes },
      (outcome) =>
        this.guard(() => {
          if (outcome.findings.length > 0) this.addFindings(outcome.findings);
          if (outcome.unsent && outcome.response) this.send(outcome.response, outcome.error);
          else this.record(outcome);
        }),
    );
  }

  /**
   * Sandbox mode: the row, the sandbox's decision (its books, its findings) and the recorded answer are
   * written in ONE transaction of the group commit, and the answer goes out once that is committed. All
   * or nothing: an answer that could not be made durable is never sent, and its row is not half-written.
   * (Two commits a request, row then decision, held the sandbox near half the floor: BENCHMARKS.md, issue 9 pass.)
   */
  private commitDecided(row: NewExchange, body: Buffer, signature: SignatureReport | null, candidates: readonly SecretCandidate[]): void {
    const call = { kind: this.kind, method: this.req.method ?? 'GET', body, verdict: signature?.verdict ?? null, secretConfigured: candidates.some((c) => c.primary), at: this.at };
    this.commits.write(
      () => {
        const decided = this.decide(call);
        const exchanges = this.env.exchanges;
        const id = exchanges.insert(decided.findings.length > 0 ? { ...row, findings: [...row.findings, ...decided.findings] } : row).id;
        exchanges.complete(id, this.completion(decided.answer, decided.error));
        return { id, answer: decided.answer };
      },
      (err, out) => {
        if (err !== null || out === undefined) return this.dropped(err);
        this.id = out.id;
        this.guard(() => this.write(out.answer));
      },
    );
  }

  /** The sandbox's answer; a bug in it answers 500 (recorded), a storage failure sinks the whole write. */
  private decide(call: SandboxCall): { answer: ProxyAnswer; findings: Finding[]; error: string | null } {
    try {
      const decided = this.env.sandbox.handle(call);
      return { answer: jsonAnswer(decided.answer.status, decided.answer.body, decided.answer.headers ?? []), findings: decided.findings, error: null };
    } catch (err) {
      if ((err as Error | null)?.name === 'SqliteError') throw err;
      return { answer: proxyError('INTERNAL_ERROR'), findings: [], error: `internal error: ${(err as Error)?.message ?? String(err)}` };
    }
  }

  /** The connection closed before the body was complete: records what arrived, with the reason. */
  clientLeft(): void {
    if (this.state !== 'reading' || this.req.complete) return;
    const expected = headerValue(this.req, 'content-length');
    const of = expected !== undefined ? ` of ${expected}` : '';
    const error = `the client closed the connection after ${this.received}${of} body bytes, before the request was complete`;
    this.commit(this.row(this.body(), false, null, [], error), () => this.record({ response: null, error }));
  }

  private body(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.kept);
  }

  private row(
    body: Buffer,
    truncated: boolean,
    signature: SignatureReport | null,
    findings: Finding[],
    error: string | null,
    keys: KeyFields = NO_KEY_FIELDS,
    candidates: readonly SecretCandidate[] = this.env.candidates(),
  ): NewExchange {
    this.state = 'committed';
    const secrets: string[] = [];
    for (const c of candidates) if (c.secret.length >= MIN_REDACTED_SECRET) secrets.push(c.secret);
    return {
      direction: 'inbound',
      kind: this.kind,
      origin: 'proxy',
      at: this.at,
      method: this.req.method ?? '',
      path: this.path,
      query: this.query,
      target: null,
      // A sender that puts a stored secret itself in a header (in x-server-authorization, say) must not
      // leave it in clear in the database: such a value becomes its fingerprint marker.
      headers: redactHeaders(toPairs(this.req.rawHeaders), secrets),
      body,
      size: this.received,
      truncated,
      remoteAddress: this.req.socket.remoteAddress ?? null,
      signature,
      findings,
      keys,
      sourceId: null,
    };
  }

  /** Commits the row with the next group, then runs `then`; on failure the request is dropped unanswered. */
  private commit(row: NewExchange, then: () => void): void {
    this.commits.write(
      () => this.env.exchanges.insert(row).id,
      (err, id) => {
        if (err !== null || id === undefined) return this.dropped(err);
        this.id = id;
        this.guard(then);
      },
    );
  }

  /** A request refused before it was judged: its row and the refusal in one write of the group, then the answer. */
  private commitAnswered(row: NewExchange, answer: ProxyAnswer, error: string | null): void {
    this.commits.write(
      () => {
        const id = this.env.exchanges.insert(row).id;
        this.env.exchanges.complete(id, this.completion(answer, error));
        return id;
      },
      (err, id) => {
        if (err !== null || id === undefined) return this.dropped(err);
        this.id = id;
        this.guard(() => this.write(answer));
      },
    );
  }

  private commitNow(row: NewExchange): boolean {
    try {
      this.id = this.env.exchanges.insert(row).id;
      return true;
    } catch (err) {
      this.dropped(err);
      return false;
    }
  }

  /** Nothing unrecorded gets an answer: a request whose row could not be written is cut off. */
  private dropped(err: unknown): void {
    this.env.onCaptureFailure(err);
    this.res.destroy();
  }

  private addFindings(findings: Finding[]): void {
    const id = this.id;
    this.commits.write(() => this.env.exchanges.addFindings(id, findings));
  }

  /** The proxy's own answer (errors): recorded at once, then sent, so the record is there when the client reads it. */
  private send(answer: ProxyAnswer, error: string | null): void {
    this.recordAnswer(answer, error);
    this.write(answer);
  }

  /** Records the proxy's own answer on the committed row, at once (not with the next group). */
  private recordAnswer(answer: ProxyAnswer, error: string | null): void {
    try {
      this.env.exchanges.complete(this.id, this.completion(answer, error));
    } catch (err) {
      this.env.onCaptureFailure(err);
    }
  }

  private write(answer: ProxyAnswer): void {
    if (this.res.destroyed) return;
    this.res.writeHead(answer.status, flatten(answer.headers));
    this.res.end(answer.body);
  }

  private completion(response: ExchangeCompletion['response'], error: string | null): ExchangeCompletion {
    return {
      response,
      error,
      durationMs: Math.round((performance.now() - this.started) * 1000) / 1000,
      completedAt: new Date().toISOString(),
    };
  }

  /** Records the end of an exchange whose answer is already out (a relayed one), with the next group. */
  private record(outcome: { response: { status: number; headers: HeaderList; body: Buffer } | null; error: string | null }): void {
    const id = this.id;
    const completion = this.completion(outcome.response, outcome.error);
    this.commits.write(
      () => this.env.exchanges.complete(id, completion),
      (err) => {
        // The answer is out and the request row is durable; only the response record is lost (the desk closing, say).
        if (err !== null) this.env.onCaptureFailure(err);
      },
    );
  }
}
