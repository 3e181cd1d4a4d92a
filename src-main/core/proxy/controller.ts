// Starts, restarts and stops the one capture proxy of a desk, and says what it is doing. Starts and
// stops are queued so that two quick clicks in the UI cannot race each other onto one port. The
// controller keeps the configuration of the last start: a start gives only what changes, so a restart
// from the UI (or a Stop then Start) keeps the secret, the limits, the TLS and the public URL `serve`
// was started with.
//
// A change never drops traffic. Everything a change needs (the upstream URL, the limits, the secret,
// the certificate) is checked before anything running is touched, so a change that fails leaves the
// proxy exactly as it was and says why. Then:
//   - same address and scheme: the running listener is kept and takes the new configuration for the
//     requests that arrive next (requests in flight finish as they began); no port is re-bound.
//   - another address: the new listener starts first; the old one stops accepting and its exchanges in
//     flight finish (up to the upstream and request timeouts) while the new one already answers. If the
//     new port cannot be bound, the old listener never noticed.
//   - same address, other scheme (HTTP to HTTPS): the port must be released before it is bound again,
//     a gap of one bind; if that bind fails, the old configuration is bound again.
import type { CallbackUrls, ProfileCallbackUrls, ProxyLimits, ProxyStatus } from '../../shared/model';
import { listenFailure } from '../listen-failure';
import type { CallbackSettings } from '../protocol/callback-settings';
import { secretsToRedact } from '../redact';
import { DeskFailure } from '../result';
import type { SecretCandidate } from '../signing';
import type { CaptureUpkeep } from '../store/contract/capture-upkeep';
import type { CaptureWriter } from '../store/contract/capture-writer';
import { DEFAULT_GUARD_RAILS, type CaptureEnv, type GuardRails } from './env';
import type { FaultSource } from './faults';
import {
  callbackUrlsOf,
  checkPort,
  checkPositive,
  checkPublicUrl,
  DEFAULT_PROXY_HOST,
  DEFAULT_PROXY_PORT,
  exposureWarning,
  urlOf,
  type ProxyStartOptions,
} from './options';
import { routingFor, type RouteSource } from './route-plan';
import type { RoutingTable } from './routes';
import { CaptureServer, CLOSE_GRACE_MS } from './server';
import { loadTls, type TlsMaterial } from './tls';
import { OneAtATime } from '../one-at-a-time';

/** What the controller needs from the desk. */
export interface ProxyHost extends RouteSource {
  /** Starts the engine's work beside a running proxy (SQLite: checkpoints, the text index); null: the engine has none here. */
  readonly startUpkeep: (() => CaptureUpkeep) | null;
  /** One line on why a capture could not be written, where the engine can tell (a full disk, another process's lock); else null. */
  explainWriteFailure(err: unknown): string | null;
  /** A writer into the exchange log, for one listener (each has its own group commit). */
  openCaptureWriter(): CaptureWriter;
  /** The faults to apply to callbacks (absent: none). */
  readonly faults?: FaultSource;
  /** guardRails: the desk's own (DeskOptions.proxyGuardRails), over DEFAULT_GUARD_RAILS; a start's options win over both. */
  readonly defaults: { maxBodyBytes: number; upstreamTimeoutMs: number; guardRails?: Partial<GuardRails> };
  /** The data directory: a self-signed certificate is kept there (without one, none can be made). */
  readonly dataDir?: string;
  /** The stored upstream of the named (else active) profile; throws not-found for an unknown name. */
  profileUpstream(profile?: string): string | null;
  /** The stored public URL of the named (else active) profile, or null; absent: profiles have none. */
  profilePublicUrl?(profile?: string): string | null;
  signingCandidates(profile?: string): SecretCandidate[];
  /** Every stored API key (the signing secrets come with signingCandidates): none is stored in clear. */
  apiKeys(): string[];
  /** The named (else active) profile's callback prefix and amounts; `callbackPrefix` (a start's own) wins. */
  callbackSettings(profile: string | undefined, callbackPrefix: string | undefined): CallbackSettings;
  statusChanged(status: ProxyStatus): void;
}

/** A configuration checked and resolved: everything a listener needs, found before anything running is touched. */
interface Plan {
  config: ProxyStartOptions;
  host: string;
  port: number;
  upstream: URL | null;
  limits: ProxyLimits;
  rails: GuardRails;
  env: CaptureEnv;
  tls: TlsMaterial | null;
}

export class ProxyController {
  private server: CaptureServer | null = null;
  private current: ProxyStatus | null = null;
  /** The plan the running listener serves. */
  private running: Plan | null = null;
  private lastHost = DEFAULT_PROXY_HOST;
  private failure: string | null = null;
  private unjudged = 0;
  private readonly turns = new OneAtATime();
  /** What the starts so far have set (the last successful one's configuration). */
  private config: ProxyStartOptions = {};
  /** Listeners a change replaced, finishing their exchanges in flight. */
  private readonly draining = new Set<CaptureServer>();
  /** The engine's work off the capture path, from the first listener up to the stop (one across changes). */
  private upkeep: CaptureUpkeep | null = null;

  constructor(private readonly host: ProxyHost) {}

  /** Cheap: a profile look-up or two (the public URL and the callback prefix in force, the mode a start would take). */
  status(): ProxyStatus {
    if (this.current) {
      const publicUrl = this.safely(() => this.publicUrlOf(this.config));
      return {
        ...this.current,
        warning: this.warning(this.current.host),
        unjudged: this.unjudged,
        publicUrl,
        publicUrlSource: this.publicUrlSource(publicUrl),
        callbackUrls: this.safely(() => this.callbackUrls(publicUrl ?? this.current!.url!)),
        profileCallbackUrls: this.safely(() => this.profileCallbackUrls(publicUrl ?? this.current!.url!)),
      };
    }
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
    const publicUrl = this.safely(() => this.publicUrlOf(this.config));
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
      tls: null,
      publicUrl,
      publicUrlSource: this.publicUrlSource(publicUrl),
      callbackUrls: publicUrl ? this.safely(() => this.callbackUrls(publicUrl)) : null,
      profileCallbackUrls: publicUrl ? this.safely(() => this.profileCallbackUrls(publicUrl)) : null,
    };
  }

  private safely<T>(fn: () => T): T | null {
    try {
      return fn();
    } catch {
      return null;
    }
  }

  private publicUrlSource(publicUrl: string | null): 'proxy' | 'profile' | null {
    if (publicUrl === null) return null;
    return this.config.publicUrl !== undefined && this.config.publicUrl !== null ? 'proxy' : 'profile';
  }

  /** The public URL a configuration gives (its own, else its profile's), checked. */
  private publicUrlOf(config: ProxyStartOptions): string | null {
    const own = config.publicUrl;
    const url = own !== undefined && own !== null ? own : (this.host.profilePublicUrl?.(config.profile ?? undefined) ?? null);
    return url ? checkPublicUrl(url) : null;
  }

  /** Looked up afresh (the status is not on the request path): a profile just changed shows at once. */
  private callbackUrls(base: string): CallbackUrls {
    // No profile of its own to serve first (a desk on a team's database often has none active): the one
    // profile the table serves is the one the platform calls, not the default prefix no route has.
    if ((this.config.profile ?? this.host.activeProfile()) === null && (this.config.callbackPrefix ?? null) === null) {
      const routes = this.routingTable().routes;
      if (routes.length === 1) return callbackUrlsOf(base, routes[0]!.settings.prefix);
    }
    const prefix = this.host.callbackSettings(this.config.profile ?? undefined, this.config.callbackPrefix ?? undefined).prefix;
    return callbackUrlsOf(base, prefix);
  }

  /** The routing table of the configuration in force (running, or as a start would make it). */
  private routingTable(): RoutingTable {
    return this.running?.env.routes() ?? routingFor(this.host, this.config, (lookUp) => lookUp)();
  }

  /** Each profile served and its callback URLs, as the routing table of the configuration in force has them. */
  private profileCallbackUrls(base: string): ProfileCallbackUrls[] {
    return this.routingTable().routes.map((r) => ({ profile: r.profile, ...callbackUrlsOf(base, r.settings.prefix) }));
  }

  /** The configuration of the last start, changed by what `options` gives (undefined leaves a field as it was). */
  private merged(options: ProxyStartOptions): ProxyStartOptions {
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as ProxyStartOptions;
    return { ...this.config, ...given };
  }

  start(options: ProxyStartOptions = {}): Promise<ProxyStatus> {
    return this.turns.run(async () => {
      const plan = await this.plan(this.merged(options));
      const running = this.server;
      if (running === null) return this.listenFresh(plan);
      // Port 0 asked for anew picks another free port; inherited from the last start, it keeps the one in use.
      const samePort = plan.port === running.port || (plan.port === 0 && options.port === undefined);
      const sameAddress = this.running !== null && plan.host === this.running.host && samePort;
      const sameScheme = (plan.tls === null) === (running.tls === null);
      if (sameAddress && sameScheme) {
        running.reconfigure(plan.env, plan.rails, plan.tls);
        return this.nowServing(running, plan, false);
      }
      if (sameAddress) return this.rebind(running, plan);
      let next: CaptureServer;
      try {
        next = await CaptureServer.listen(plan.env, plan.rails, plan.host, plan.port, plan.tls);
      } catch (err) {
        throw this.notApplied(listenFailure(err as NodeJS.ErrnoException, 'the capture proxy', plan.host, plan.port));
      }
      this.retire(running);
      return this.nowServing(next, plan, true);
    });
  }

  /** Checks and resolves a configuration; throws (with why) without touching anything running. */
  private async plan(config: ProxyStartOptions): Promise<Plan> {
    try {
      const host = config.host ?? DEFAULT_PROXY_HOST;
      if (typeof host !== 'string' || host.trim() === '') throw new DeskFailure('bad-input', 'The proxy host must be a host name or address.');
      const port = checkPort(config.port ?? DEFAULT_PROXY_PORT);
      const routes = routingFor(this.host, config, this.perTurn);
      const upstream = routes().routes[0]?.upstream ?? null;
      const limits = this.limitsOf(config);
      const rails: GuardRails = {
        headersTimeoutMs: limits.headersTimeoutMs,
        requestTimeoutMs: limits.requestTimeoutMs,
        keepAliveTimeoutMs: limits.keepAliveTimeoutMs,
        maxHeaderBytes: limits.maxHeaderBytes,
        tlsHandshakeTimeoutMs: limits.tlsHandshakeTimeoutMs,
        maxConnections: limits.maxConnections,
      };
      const env: CaptureEnv = {
        openWriter: () => this.host.openCaptureWriter(),
        routes,
        maxBodyBytes: limits.maxBodyBytes,
        upstreamTimeoutMs: limits.upstreamTimeoutMs,
        ...(this.host.faults ? { faults: this.host.faults } : {}),
        faultHoldMs: limits.requestTimeoutMs,
        // Any route's candidates hold every stored secret (the primary's, the start's own, too).
        secrets: this.secretsFor(() => routes().routes[0]!.candidates()),
        onCaptureFailure: (err) => this.captureFailed(err),
        onCaptureStored: () => this.captureStored(),
        onUnjudged: () => this.judgingFailed(),
      };
      this.publicUrlOf(config);
      const tls = config.tls ? await this.tlsOf(config.tls) : null;
      return { config, host, port, upstream, limits, rails, env, tls };
    } catch (err) {
      throw this.notApplied(err);
    }
  }

  private tlsOf(tls: NonNullable<ProxyStartOptions['tls']>): Promise<TlsMaterial> {
    const dir = this.host.dataDir;
    if ('selfSigned' in tls && dir === undefined) throw new DeskFailure('bad-input', 'A self-signed certificate needs a data directory to be kept in.');
    return loadTls(tls, dir ?? '');
  }

  /** While a proxy runs, a refused change says that it still runs, unchanged. */
  private notApplied(err: unknown): unknown {
    if (!(err instanceof DeskFailure) || this.current === null) return err;
    return new DeskFailure(err.code, `${err.message} The change was not applied: the proxy still runs on ${this.current.url} as before.`);
  }

  private async listenFresh(plan: Plan): Promise<ProxyStatus> {
    this.lastHost = plan.host;
    let server: CaptureServer;
    try {
      server = await CaptureServer.listen(plan.env, plan.rails, plan.host, plan.port, plan.tls);
    } catch (err) {
      this.host.statusChanged(this.status());
      throw listenFailure(err as NodeJS.ErrnoException, 'the capture proxy', plan.host, plan.port);
    }
    return this.nowServing(server, plan, true);
  }

  /** Same address, other scheme: the port is released and bound again; on failure the old configuration is bound again. */
  private async rebind(running: CaptureServer, plan: Plan): Promise<ProxyStatus> {
    const previous = this.running!;
    const port = running.port;
    this.retire(running);
    try {
      return this.nowServing(await CaptureServer.listen(plan.env, plan.rails, plan.host, port, plan.tls), plan, true);
    } catch (err) {
      const failure = listenFailure(err as NodeJS.ErrnoException, 'the capture proxy', plan.host, port);
      try {
        this.nowServing(await CaptureServer.listen(previous.env, previous.rails, previous.host, port, previous.tls), previous, true);
      } catch {
        await this.stopServer();
        this.host.statusChanged(this.status());
        throw failure;
      }
      throw this.notApplied(failure);
    }
  }

  /** The old listener stops accepting; its exchanges in flight finish (as long as they may take) in the background. */
  private retire(server: CaptureServer): void {
    const limits = this.running?.limits;
    const grace = limits ? Math.max(limits.upstreamTimeoutMs, limits.requestTimeoutMs) + 1_000 : CLOSE_GRACE_MS;
    this.draining.add(server);
    void server.close(grace).finally(() => this.draining.delete(server));
  }

  private nowServing(server: CaptureServer, plan: Plan, fresh: boolean): ProxyStatus {
    this.upkeep ??= this.host.startUpkeep?.() ?? null;
    this.server = server;
    this.running = plan;
    this.config = plan.config;
    this.lastHost = plan.host;
    if (fresh) {
      this.failure = null;
      this.unjudged = 0;
    }
    const port = server.port;
    this.current = {
      running: true,
      url: urlOf(plan.host, port, server.scheme),
      host: plan.host,
      port,
      mode: plan.upstream ? 'forward' : 'sandbox',
      upstream: plan.upstream ? plan.upstream.href : null,
      warning: null,
      limits: plan.limits,
      secretSource: plan.config.secret?.label ?? null,
      unjudged: 0,
      tls: plan.tls ? plan.tls.status : null,
    };
    const status = this.status();
    this.host.statusChanged(status);
    return status;
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
    return this.turns.run(async () => {
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
    this.running = null;
    // Listeners still finishing a change's exchanges get the short grace of a stop too.
    await Promise.all([server?.close(), ...[...this.draining].map((d) => d.close(CLOSE_GRACE_MS))]);
    const upkeep = this.upkeep;
    this.upkeep = null;
    await upkeep?.stop();
  }

  /**
   * The secrets to redact: every signing secret (the candidates hold them all, the start's own among
   * them) and every stored API key, looked up once per turn of the event loop, as the candidates are.
   */
  private secretsFor(candidates: () => SecretCandidate[]): () => readonly string[] {
    // Opening every API key and probe credential each turn cost two queries and a decryption per key:
    // the list is kept until the profiles change (the routes are rebuilt on the same signal).
    let version: number | null = null;
    let secrets: readonly string[] = [];
    return this.perTurn(() => {
      const now = this.host.profilesVersion();
      if (now !== version) {
        secrets = secretsToRedact(
          candidates().map((c) => c.secret),
          this.host.apiKeys(),
        );
        version = now;
      }
      return secrets;
    });
  }

  /** One look-up per turn of the event loop serves every request of that turn (a profile change applies to the next). */
  private readonly perTurn = <T>(lookUp: () => T): (() => T) => {
    let cached: { value: T } | null = null;
    return () => {
      if (cached === null) {
        cached = { value: lookUp() };
        setImmediate(() => (cached = null));
      }
      return cached.value;
    };
  };

  private judgingFailed(): void {
    this.unjudged++;
    this.host.statusChanged(this.status());
  }

  private warning(host: string): string | null {
    const unjudged =
      this.unjudged > 0 ? `${this.unjudged} request(s) could not be judged (an internal error): they are recorded with the error instead of a verdict.` : null;
    const parts = [exposureWarning(host), this.failure, unjudged].filter((p): p is string => p !== null);
    return parts.length > 0 ? parts.join(' ') : null;
  }

  /** The storage is back: the warning says what is wrong now, not what was wrong a while ago. */
  private captureStored(): void {
    if (this.failure === null) return;
    this.failure = null;
    this.host.statusChanged(this.status());
  }

  private captureFailed(err: unknown): void {
    const reason = this.host.explainWriteFailure(err) ?? (err as Error)?.message ?? String(err);
    const message = `A capture could not be written to the database, so its request was answered 503 (not forwarded, not acknowledged): ${reason}`;
    if (message === this.failure) return;
    this.failure = message;
    this.host.statusChanged(this.status());
  }
}
