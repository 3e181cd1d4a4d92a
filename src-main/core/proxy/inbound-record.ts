// What a captured request writes and answers once it is judged, whichever step answers it (the sandbox,
// the upstream, a fault): its row committed with the next group, the proxy's own answers recorded before
// they are sent, a relayed answer's record, and 503 when a row cannot be made durable. The states and
// the order they promise are described in inbound.ts; the steps are sandbox-step.ts, forward-step.ts and
// fault-step.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Finding, HeaderList } from '../../shared/model';
import { redactCompletion } from '../capture';
import type { ExchangeCompletion, NewExchange } from '../capture/new-exchange';
import type { CaptureWriter } from '../store/contract/capture-writer';
import type { CaptureEnv } from './env';
import { proxyError, type ProxyAnswer } from './error-answers';
import { flatten } from './headers';

export type InboundState = 'receiving' | 'recording' | 'recorded' | 'answered';

export type Response = { status: number; headers: HeaderList; body: Uint8Array };

export type Outcome = { response: Response | null; error: string | null };

export const messageOf = (err: unknown): string => (err as Error | null)?.message ?? String(err);

export abstract class InboundRecord {
  state: InboundState = 'receiving';
  /** Whether this request's row has been handed to a write: until then, a failure records a row of its own. */
  rowQueued = false;
  /** The row's id, once committed. */
  id = 0;
  /** ISO time of arrival. */
  readonly at = new Date().toISOString();
  private readonly started = performance.now();
  /** The secrets the row was redacted with: the response is redacted with the same (no second look-up). */
  secrets: readonly string[] | null = null;

  constructor(
    readonly env: CaptureEnv,
    readonly commits: CaptureWriter,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
  ) {}

  /** The row written when a bug ends the request before its row exists: what arrived, and the error. */
  protected abstract rowOfFailure(error: string): NewExchange;

  /** Runs `fn`; a bug or a failed write ends this exchange (recorded where it can be), never the proxy. */
  guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      const error = `internal error: ${messageOf(err)}`;
      // Before its row exists, the row is written with the error, so the request is not lost from the log.
      if (!this.rowQueued) {
        this.env.onUnjudged(err);
        this.commitAnswered(this.rowOfFailure(error), proxyError('INTERNAL_ERROR', true), error);
      } else if (!this.res.headersSent && !this.res.destroyed && this.id > 0) this.send(proxyError('INTERNAL_ERROR'), error);
      else this.res.destroy();
    }
  }

  recorded(id: number): void {
    this.id = id;
    this.state = 'recorded';
    this.env.onCaptureStored();
  }

  /** Commits the row with the next group, then runs `then`; on failure the request is answered 503. */
  commit(row: NewExchange, then: () => void): void {
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
  commitAnswered(row: NewExchange, answer: ProxyAnswer, error: string | null): void {
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
  dropped(err: unknown): void {
    this.state = 'answered';
    this.env.onCaptureFailure(err);
    if (this.res.headersSent || this.res.destroyed) return void this.res.destroy();
    const answer = proxyError('CAPTURE_NOT_STORED', true);
    this.res.writeHead(answer.status, flatten(answer.headers));
    this.res.end(answer.body);
  }

  addFindings(findings: Finding[]): void {
    const id = this.id;
    this.commits.write((tx) => tx.rows.addFindings(id, findings), undefined, 0);
  }

  /** The proxy's own answer (errors): recorded first, then sent, so the record is there when the client reads it. */
  send(answer: ProxyAnswer, error: string | null): void {
    this.state = 'answered';
    this.recordNow(answer, error, () => this.write(answer));
  }

  /**
   * Records the end of the committed request (the proxy's own answer, or none) at once where the engine
   * can, then runs `then`. The row is durable already: should this record fail, `then` still runs.
   */
  recordNow(answer: ProxyAnswer | null, error: string | null, then: () => void): void {
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

  write(answer: ProxyAnswer): void {
    this.state = 'answered';
    if (this.res.destroyed) return;
    this.res.writeHead(answer.status, flatten(answer.headers));
    this.res.end(answer.body);
  }

  /**
   * What is stored of an answer: an upstream may echo a stored secret in its headers or body. When the
   * secrets cannot be read, only the status is kept (nothing that could hold one in clear).
   */
  completion(response: Response | null, error: string | null): ExchangeCompletion {
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
  recordThenRelease(outcome: Outcome, release: () => void): void {
    this.recordRelayed(outcome, (err) => {
      if (err !== null) {
        this.env.onCaptureFailure(err);
        this.res.destroy();
      } else this.guard(release);
    });
  }

  /** Records the end of an exchange whose answer is already out (a relayed one), with the next group. */
  record(outcome: Outcome): void {
    this.recordRelayed(outcome, (err) => {
      // The answer is out and the request row is durable; only the response record is lost (the desk closing, say).
      if (err !== null) this.env.onCaptureFailure(err);
    });
  }

  /** Writes a relayed answer's record with the next group; `committed` learns how that went. */
  private recordRelayed(outcome: Outcome, committed: (err: unknown) => void): void {
    this.state = 'answered';
    const id = this.id;
    const completion = this.completion(outcome.response, outcome.error);
    this.commits.write((tx) => tx.rows.finish(id, completion), committed, 0);
  }
}
