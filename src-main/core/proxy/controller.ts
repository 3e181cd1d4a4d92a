// Starts, restarts and stops the one capture proxy of a desk, and says what it is doing. Starts and
// stops are queued so that two quick clicks in the UI cannot race each other onto one port. The
// controller keeps the configuration of the last start: a start gives only what changes, so a restart
// from the UI keeps the secret and the limits `serve` was started with.
import type { ProxyLimits, ProxyStatus } from '../../shared/model';
import { listenFailure } from '../listen-failure';
import type { CallbackSettings } from '../outbound/callback-settings';
import { secretsToRedact } from '../redact';
import { DeskFailure } from '../result';
import type { SandboxOperator } from '../sandbox';
import type { SecretCandidate } from '../signing';
import { connectionOf, type Store } from '../store';
import { explainStorageFailure } from '../store/open-errors';
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
  readonly store: Store;
  readonly nativeBinding?: string;
  readonly sandbox: SandboxOperator;
  /** guardRails: the desk's own (DeskOptions.proxyGuardRails), over DEFAULT_GUARD_RAILS; a start's options win over both. */
  readonly defaults: { maxBodyBytes: number; upstreamTimeoutMs: number; guardRails?: Partial<GuardRails> };
  /** The stored upstream of the named (else active) profile; throws not-found for an unknown name. */
  profileUpstream(profile?: string): string | null;
  signingCandidates(profile?: string): SecretCandidate[];
  /** Every stored API key (the signing secrets come with signingCandidates): none is stored in clear. */
  apiKeys(): string[];
  /** The named (else active) profile's callback prefix and amounts; `callbackPrefix` (a start's own) wins. */
  callbackSettings(profile: string | undefined, callbackPrefix: string | undefined): CallbackSettings;
  statusChanged(status: ProxyStatus): void;
}

export class ProxyController {
  private server: CaptureServer | null = null;
  private current: ProxyStatus | null = null;
  private lastHost = DEFAULT_PROXY_HOST;
  private failure: string | null = null;
  private unjudged = 0;
  private queue: Promise<unknown> = Promise.resolve();
  /** What the starts so far have set (the last successful one's configuration). */
  private config: ProxyStartOptions = {};

  constructor(private readonly host: ProxyHost) {}

  /** Cheap: no I/O while running; one profile look-up while stopped (the mode a start would take). */
  status(): ProxyStatus {
    if (this.current) return { ...this.current, warning: this.warning(this.current.host), unjudged: this.unjudged };
    let upstream: string | null = null;
    try {
      upstream = this.config.upstream === undefined ? this.host.profileUpstream(this.config.profile ?? undefined) : this.config.upstream;
    } catch {
      upstream = null;
    }
    let limits: ProxyLimits | undefined;
    try {
      limits = this.limitsOf(this.config);
    } catch {
      limits = undefined;
    }
    return {
      running: false,
      url: null,
      host: this.lastHost,
      port: null,
      mode: upstream ? 'forward' : 'sandbox',
      upstream,
      warning: this.failure,
      ...(limits ? { limits } : {}),
      secretSource: this.config.secret?.label ?? null,
      unjudged: this.unjudged,
    };
  }

  /** The configuration of the last start, changed by what `options` gives (undefined leaves a field as it was). */
  private merged(options: ProxyStartOptions): ProxyStartOptions {
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as ProxyStartOptions;
    return { ...this.config, ...given };
  }

  start(options: ProxyStartOptions = {}): Promise<ProxyStatus> {
    return this.serially(async () => {
      const config = this.merged(options);
      const host = config.host ?? DEFAULT_PROXY_HOST;
      if (typeof host !== 'string' || host.trim() === '') throw new DeskFailure('bad-input', 'The proxy host must be a host name or address.');
      const port = checkPort(config.port ?? DEFAULT_PROXY_PORT);
      const profile = config.profile ?? undefined;
      const upstreamText = config.upstream === undefined ? this.host.profileUpstream(profile) : config.upstream;
      const upstream = upstreamText ? checkUpstream(upstreamText) : null;
      const limits = this.limitsOf(config);
      const rails: GuardRails = {
        headersTimeoutMs: limits.headersTimeoutMs,
        requestTimeoutMs: limits.requestTimeoutMs,
        keepAliveTimeoutMs: limits.keepAliveTimeoutMs,
        maxHeaderBytes: limits.maxHeaderBytes,
      };
      const candidates = this.candidatesFor(config);
      const env: CaptureEnv = {
        db: connectionOf(this.host.store),
        ...(this.host.nativeBinding ? { nativeBinding: this.host.nativeBinding } : {}),
        exchanges: this.host.store.exchanges,
        sandbox: this.host.sandbox,
        upstream,
        maxBodyBytes: limits.maxBodyBytes,
        upstreamTimeoutMs: limits.upstreamTimeoutMs,
        faults: this.host.store.faults,
        faultHoldMs: limits.requestTimeoutMs,
        candidates,
        secrets: this.secretsFor(candidates),
        callbackSettings: this.perTurn(() => this.host.callbackSettings(config.profile ?? undefined, config.callbackPrefix ?? undefined)),
        onCaptureFailure: (err) => this.captureFailed(err),
        onUnjudged: () => this.judgingFailed(),
      };
      // A lost or foreign key file, or a malformed prefix, refuses the start in one line instead of failing every request later.
      env.candidates();
      env.callbackSettings();

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
      this.config = config;
      const actualPort = this.server.port;
      this.current = {
        running: true,
        url: urlOf(host, actualPort),
        host,
        port: actualPort,
        mode: upstream ? 'forward' : 'sandbox',
        upstream: upstream ? upstream.href : null,
        warning: null,
        limits,
        secretSource: config.secret?.label ?? null,
        unjudged: 0,
      };
      const status = this.status();
      this.host.statusChanged(status);
      return status;
    });
  }

  /** The limits a configuration asks for, over the desk's defaults, each checked. */
  private limitsOf(config: ProxyStartOptions): ProxyLimits {
    const d = this.host.defaults;
    const rails: GuardRails = { ...DEFAULT_GUARD_RAILS };
    for (const key of Object.keys(rails) as Array<keyof GuardRails>) {
      const value = config[key] ?? d.guardRails?.[key];
      if (value !== undefined) rails[key] = checkPositive(key, value);
    }
    return {
      ...rails,
      maxBodyBytes: config.maxBodyBytes !== undefined ? checkPositive('maxBodyBytes', config.maxBodyBytes) : d.maxBodyBytes,
      upstreamTimeoutMs: config.upstreamTimeoutMs !== undefined ? checkPositive('upstreamTimeoutMs', config.upstreamTimeoutMs) : d.upstreamTimeoutMs,
    };
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
    const profile = options.profile ?? undefined;
    const override = options.secret ?? null;
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

  /** One look-up per turn of the event loop serves every request of that turn (a profile change applies to the next). */
  private perTurn<T>(lookUp: () => T): () => T {
    let cached: { value: T } | null = null;
    return () => {
      if (cached === null) {
        cached = { value: lookUp() };
        setImmediate(() => (cached = null));
      }
      return cached.value;
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
    const reason = explainStorageFailure(err)?.message ?? (err as Error)?.message ?? String(err);
    const message = `A capture could not be written to the database, so its request was dropped unanswered: ${reason}`;
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

