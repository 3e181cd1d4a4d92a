import type { DeskApi } from '../../shared/desk-api';
import type { DeskStatus, ProxyStatus } from '../../shared/model';
import { ProxyController } from '../proxy';
import { attempt, DeskFailure } from '../result';
import { SandboxLedger, SandboxOperator } from '../sandbox';
import type { DeskContext } from './context';

export type ProxyPart = Pick<DeskApi, 'getStatus' | 'startProxy' | 'stopProxy' | 'getSandboxState' | 'setSandboxBalance' | 'resetSandbox'>;

interface ProxyParts {
  proxy: ProxyController;
  ledger: SandboxLedger;
  /** The desk's status; `proxy` when the caller already holds the proxy's (the controller hands it over). */
  status(proxy?: ProxyStatus): DeskStatus;
}

const parts = new WeakMap<DeskContext, ProxyParts>();

function partsOf(ctx: DeskContext): ProxyParts {
  const found = parts.get(ctx);
  if (found) return found;
  const { store } = ctx;
  const ledger = new SandboxLedger(store.db, store.settings);
  const made: ProxyParts = {
    ledger,
    proxy: new ProxyController({
      db: store.db,
      ...(ctx.options.nativeBinding ? { nativeBinding: ctx.options.nativeBinding } : {}),
      exchanges: store.exchanges,
      sandbox: new SandboxOperator(ledger),
      defaults: { maxBodyBytes: ctx.options.maxBodyBytes, upstreamTimeoutMs: ctx.options.upstreamTimeoutMs, guardRails: ctx.options.proxyGuardRails },
      profileUpstream: (name) => {
        const wanted = name ?? store.profiles.activeName();
        if (wanted === null) return null;
        const view = store.profiles.get(wanted);
        if (!view && name !== undefined) throw new DeskFailure('not-found', `No profile named "${name}".`);
        return view?.upstream ?? null;
      },
      signingCandidates: (profile) => ctx.signingCandidates(profile),
      apiKeys: () => store.profiles.allApiKeys(),
      statusChanged: (proxy) => ctx.emit('status', made.status(proxy)),
    }),
    status: (proxy = made.proxy.status()) => ({
      proxy,
      activeProfile: store.profiles.activeName(),
      counts: store.exchanges.counts(),
      dataDir: ctx.options.home,
    }),
  };
  parts.set(ctx, made);
  ctx.onClose(() => made.proxy.stop().then(() => undefined));
  return made;
}

/** The desk's proxy controller, for the core's shells: starts with options DeskApi does not expose (a secret kept in memory, timeouts). */
export function proxyOf(ctx: DeskContext): ProxyController {
  return partsOf(ctx).proxy;
}

/** The sandbox operator's books (starting balance and the like), for the CLI. */
export function sandboxLedgerOf(ctx: DeskContext): SandboxLedger {
  return partsOf(ctx).ledger;
}

function checkAmount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new DeskFailure('bad-input', `${name} must be a finite number; got ${String(value)}.`);
  return value;
}

export function proxyPart(ctx: DeskContext): ProxyPart {
  const p = partsOf(ctx);
  return {
    getStatus: () => attempt(() => p.status()),
    startProxy: (config) =>
      attempt(async () => {
        const c = config ?? {};
        const started = await p.proxy.start({
          ...(c.host !== undefined ? { host: c.host } : {}),
          ...(c.port !== undefined ? { port: c.port } : {}),
          ...(c.upstream !== undefined ? { upstream: c.upstream === '' ? null : c.upstream } : {}),
        });
        return p.status(started);
      }),
    stopProxy: () =>
      attempt(async () => {
        return p.status(await p.proxy.stop());
      }),
    getSandboxState: () => attempt(() => p.ledger.state()),
    setSandboxBalance: (userId, balance) =>
      attempt(() => {
        if (typeof userId !== 'string' || userId === '') throw new DeskFailure('bad-input', 'A userId is required.');
        p.ledger.setBalance(userId, checkAmount('The balance', balance));
        return p.ledger.state();
      }),
    resetSandbox: () =>
      attempt(() => {
        p.ledger.reset();
        return p.ledger.state();
      }),
  };
}
