import type { DeskApi } from '../../shared/desk-api';
import type { DeskStatus, ProxyStatus, SandboxState } from '../../shared/model';
import { ProxyController, type ProxyHost } from '../proxy';
import { sqliteUpkeep } from '../store/sqlite/capture-upkeep';
import { explainStorageFailure } from '../store/sqlite/open-errors';
import { DeskFailure } from '../result';
import { attempt } from './attempt';
import { callbackSettings } from '../protocol/callback-settings';
import { SandboxOperator } from '../sandbox';
import type { DeskContext } from './context';

export type ProxyPart = Pick<
  DeskApi,
  | 'getStatus'
  | 'startProxy'
  | 'stopProxy'
  | 'prune'
  | 'deleteExchanges'
  | 'getSandboxState'
  | 'setSandboxBalance'
  | 'setSandboxStartingBalance'
  | 'resetSandbox'
  | 'listFaults'
  | 'addFault'
  | 'clearFaults'
>;

function checkAmount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new DeskFailure('bad-input', `${name} must be a finite number; got ${String(value)}.`);
  return value;
}

export function proxyPart(ctx: DeskContext): ProxyPart {
  const { store, log } = ctx;
  const ledger = store.sandbox;
  // The sandbox a person looks at and edits is the active profile's books.
  const book = (): string => store.profiles.activeName() ?? '';
  // Over PostgreSQL the counts are a query away: read by getStatus, and the last ones reused by status events.
  const status = (proxyStatus: ProxyStatus = proxy.status()): DeskStatus => ({
    proxy: proxyStatus,
    activeProfile: store.profiles.activeName(),
    secretsKey: store.secretsKey,
    secretsKeyProblem: store.profiles.keyProblem(),
    counts: log.knownCounts(),
    dataDir: ctx.options.home,
    ...(log.label !== null ? { exchangeLog: log.label } : {}),
  });
  const sandbox = new SandboxOperator(ledger);
  // The books the sandbox decides with: the team's, in PostgreSQL, or the data directory's.
  const state = (): Promise<SandboxState> => log.books.state(book());
  const proxyHost: ProxyHost = {
    // SQLite's checkpoints and text index run beside a proxy that writes the data directory's file.
    startUpkeep: log.label === null ? () => sqliteUpkeep(store, ctx.options.nativeBinding) : null,
    explainWriteFailure: (err) => explainStorageFailure(err)?.message ?? null,
    openCaptureWriter: () => log.openCaptureWriter(sandbox),
    faults: store.faults,
    defaults: { maxBodyBytes: ctx.options.maxBodyBytes, upstreamTimeoutMs: ctx.options.upstreamTimeoutMs, guardRails: ctx.options.proxyGuardRails },
    dataDir: ctx.options.home,
    profilePublicUrl: (name) => {
      const wanted = name ?? store.profiles.activeName();
      return wanted === null ? null : (store.profiles.get(wanted)?.publicUrl ?? null);
    },
    profileUpstream: (name) => {
      const wanted = name ?? store.profiles.activeName();
      if (wanted === null) return null;
      const view = store.profiles.get(wanted);
      if (!view && name !== undefined) throw new DeskFailure('not-found', `No profile named "${name}".`);
      return view?.upstream ?? null;
    },
    signingCandidates: (profile) => ctx.signingCandidates(profile),
    profileNames: () => store.profiles.list().map((p) => p.name),
    activeProfile: () => store.profiles.activeName(),
    profilesVersion: () => ctx.profilesVersion(),
    // Balance-probe credentials and the database's password are redacted from captures like API keys.
    apiKeys: () => [...store.profiles.allApiKeys(), ...store.profiles.allProbeCredentials(), ...ctx.databaseSecrets],
    // The profile's view (no secret decrypted): this runs once per turn of the event loop under load.
    callbackSettings: (profile, callbackPrefix) => {
      const name = profile ?? store.profiles.activeName();
      return callbackSettings(name === null ? null : store.profiles.get(name), callbackPrefix !== undefined ? { callbackPrefix } : {});
    },
    statusChanged: (proxyStatus) => ctx.emit('status', status(proxyStatus)),
  };
  const proxy = new ProxyController(proxyHost);
  ctx.onClose(() => proxy.stop().then(() => undefined));

  return {
    getStatus: () =>
      attempt(async () => {
        // The status is how a person learns that the database is away: it must not fail with it.
        try {
          await log.counts();
          return status();
        } catch (err) {
          return { ...status(), exchangeLogProblem: (err as Error).message };
        }
      }),
    startProxy: (config) =>
      attempt(async () => {
        const c = config ?? {};
        // An unknown profile is an error, not the active one (it names the secret and the upstream).
        if (typeof c.profile === 'string') ctx.profile(c.profile);
        // The proxy reads the profiles on every callback, with no call to read them first.
        ctx.keepProfilesCurrent();
        await log.ready();
        const started = await proxy.start({ ...c, ...(c.upstream === '' ? { upstream: null } : {}) });
        return status(started);
      }),
    stopProxy: () =>
      attempt(async () => {
        return status(await proxy.stop());
      }),
    prune: (options) => attempt(() => log.prune(options ?? {})),
    deleteExchanges: (target, options) =>
      attempt(async () => {
        const dryRun = options?.dryRun === true;
        const { deleted, lastId } = await log.delete(target, dryRun);
        if (!dryRun && deleted > 0) await log.counts();
        const after = status();
        // The status bar reads its counts from events: a delete must move them too.
        if (!dryRun && deleted > 0) ctx.emit('status', after);
        return { deleted, lastId, dryRun, counts: after.counts };
      }),
    getSandboxState: () => attempt(() => state()),
    setSandboxBalance: (userId, balance) =>
      attempt(async () => {
        if (typeof userId !== 'string' || userId === '') throw new DeskFailure('bad-input', 'A userId is required.');
        const amount = checkAmount('The balance', balance);
        ledger.checkUnits('The balance', amount);
        await log.books.setBalance(book(), userId, amount);
        return state();
      }),
    setSandboxStartingBalance: (balance) =>
      attempt(() => {
        ledger.setStartingBalance(checkAmount('The starting balance', balance));
        return state();
      }),
    resetSandbox: () =>
      attempt(async () => {
        await log.books.reset(book());
        return state();
      }),
    listFaults: () => attempt(() => store.faults.list()),
    addFault: (input) => attempt(() => store.faults.add(input)),
    clearFaults: () => attempt(() => store.faults.clear()),
  };
}
