// Starts, restarts and stops the one capture proxy of a desk, and says what it is doing. Starts and
// stops are queued so that two quick clicks in the UI cannot race each other onto one port.
import type { ProxyStatus } from '../../shared/model';
import { listenFailure } from '../listen-failure';
import { secretsToRedact } from '../redact';
import { DeskFailure } from '../result';
import type { SandboxOperator } from '../sandbox';
import type { SecretCandidate } from '../signing';
import type { Db, ExchangeStore } from '../store';
import { DEFAULT_GUARD_RAILS, type CaptureEnv, type GuardRails } from './env';
import {
  checkPort,
  checkPositive,
  checkUpstream,
  DEFAULT_PROXY_HOST,
  DEFAULT_PROXY_PORT,
  exposureWarning,
  urlOf,
  type ProxyStartOptions,
} from './options';
import { CaptureServer } from './server';

/** What the controller needs from the desk. */
export interface ProxyHost {
  readonly db: Db;
  readonly nativeBinding?: string;
  readonly exchanges: ExchangeStore;
  readonly sandbox: SandboxOperator;
  /** guardRails: the desk's own (DeskOptions.proxyGuardRails), over DEFAULT_GUARD_RAILS; a start's options win over both. */
  readonly defaults: { maxBodyBytes: number; upstreamTimeoutMs: number; guardRails?: Partial<GuardRails> };
  /** The stored upstream of the named (else active) profile; throws not-found for an unknown name. */
  profileUpstream(profile?: string): string | null;
  signingCandidates(profile?: string): SecretCandidate[];
  /** Every stored API key (the signing secrets come with signingCandidates): none is stored in clear. */
  apiKeys(): string[];
  statusChanged(status: ProxyStatus): void;
}

export class ProxyController {
  private server: CaptureServer | null = null;
  private current: ProxyStatus | null = null;
  private lastHost = DEFAULT_PROXY_HOST;
  private failure: string | null = null;
  private unjudged = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly host: ProxyHost) {}

  /** Cheap: no I/O while running; one profile look-up while stopped (the mode a start would take). */
  status(): ProxyStatus {
    if (this.current) return { ...this.current, warning: this.warning(this.current.host), unjudged: this.unjudged };
    let upstream: string | null = null;
    try {
      upstream = this.host.profileUpstream();
    } catch {
      upstream = null;
    }
    return { running: false, url: null, host: this.lastHost, port: null, mode: upstream ? 'forward' : 'sandbox', upstream, warning: this.failure, unjudged: this.unjudged };
  }

  start(options: ProxyStartOptions = {}): Promise<ProxyStatus> {
    return this.serially(async () => {
      const host = options.host ?? DEFAULT_PROXY_HOST;
      if (typeof host !== 'string' || host.trim() === '') throw new DeskFailure('bad-input', 'The proxy host must be a host name or address.');
      const port = checkPort(options.port ?? DEFAULT_PROXY_PORT);
      const upstreamText = options.upstream === undefined ? this.host.profileUpstream(options.profile) : options.upstream;
      const upstream = upstreamText ? checkUpstream(upstreamText) : null;
      const rails: GuardRails = { ...DEFAULT_GUARD_RAILS };
      for (const key of Object.keys(rails) as Array<keyof GuardRails>) {
        const value = options[key] ?? this.host.defaults.guardRails?.[key];
        if (value !== undefined) rails[key] = checkPositive(key, value);
      }
      const candidates = this.candidatesFor(options);
      const env: CaptureEnv = {
        db: this.host.db,
        ...(this.host.nativeBinding ? { nativeBinding: this.host.nativeBinding } : {}),
        exchanges: this.host.exchanges,
        sandbox: this.host.sandbox,
        upstream,
        maxBodyBytes: options.maxBodyBytes !== undefined ? checkPositive('maxBodyBytes', options.maxBodyBytes) : this.host.defaults.maxBodyBytes,
        upstreamTimeoutMs:
          options.upstreamTimeoutMs !== undefined ? checkPositive('upstreamTimeoutMs', options.upstreamTimeoutMs) : this.host.defaults.upstreamTimeoutMs,
        candidates,
        secrets: this.secretsFor(candidates),
        onCaptureFailure: (err) => this.captureFailed(err),
        onUnjudged: () => this.judgingFailed(),
      };

      await this.stopServer();
      this.failure = null;
      this.unjudged = 0;
      this.lastHost = host;
      try {
        this.server = await CaptureServer.listen(env, rails, host, port);
      } catch (err) {
        this.host.statusChanged(this.status());
        throw listenFailure(err as NodeJS.ErrnoException, 'the capture proxy', host, port);
      }
      const actualPort = this.server.port;
      this.current = {
        running: true,
        url: urlOf(host, actualPort),
        host,
        port: actualPort,
        mode: upstream ? 'forward' : 'sandbox',
        upstream: upstream ? upstream.href : null,
        warning: null,
        unjudged: 0,
      };
      const status = this.status();
      this.host.statusChanged(status);
      return status;
    });
  }

  stop(): Promise<ProxyStatus> {
    return this.serially(async () => {
      const wasRunning = this.server !== null;
      await this.stopServer();
      const status = this.status();
      if (wasRunning) this.host.statusChanged(status);
      return status;
    });
  }

  private async stopServer(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.current = null;
    if (server) await server.close();
  }

  /**
   * The secrets each request is verified with. Looking them up costs a query (the active profile), so
   * one look-up serves every request of the same turn of the event loop; the next turn looks again, so
   * a profile change applies to the very next request that arrives after it.
   */
  private candidatesFor(options: ProxyStartOptions): () => SecretCandidate[] {
    const profile = options.profile;
    const override = options.secret;
    const primary: SecretCandidate | null = override ? { profile: override.label, secret: override.secret, primary: true } : null;
    const lookUp = (): SecretCandidate[] => {
      const stored = this.host.signingCandidates(profile);
      return primary ? [primary, ...stored.map((c) => (c.primary ? { ...c, primary: false } : c))] : stored;
    };
    let cached: SecretCandidate[] | null = null;
    return () => {
      if (cached === null) {
        cached = lookUp();
        setImmediate(() => (cached = null));
      }
      return cached;
    };
  }

  /**
   * The secrets to redact: every signing secret (the candidates hold them all, the start's own among
   * them) and every stored API key, looked up once per turn of the event loop, as the candidates are.
   */
  private secretsFor(candidates: () => SecretCandidate[]): () => readonly string[] {
    let cached: string[] | null = null;
    return () => {
      if (cached === null) {
        cached = secretsToRedact(
          candidates().map((c) => c.secret),
          this.host.apiKeys(),
        );
        setImmediate(() => (cached = null));
      }
      return cached;
    };
  }

  private judgingFailed(): void {
    this.unjudged++;
    this.host.statusChanged(this.status());
  }

  private warning(host: string): string | null {
    const unjudged = this.unjudged > 0 ? `${this.unjudged} request(s) could not be judged (an internal error): they are recorded with the error instead of a verdict.` : null;
    const parts = [exposureWarning(host), this.failure, unjudged].filter((p): p is string => p !== null);
    return parts.length > 0 ? parts.join(' ') : null;
  }

  private captureFailed(err: unknown): void {
    const message = `A capture could not be written to the database, so its request was dropped unanswered: ${(err as Error)?.message ?? String(err)}`;
    if (message === this.failure) return;
    this.failure = message;
    this.host.statusChanged(this.status());
  }

  private serially<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

