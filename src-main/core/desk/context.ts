import type { DeskEventListener } from '../../shared/desk-api';
import { buildBalanceObserver, runBalanceObserver, type BalanceObserver, type RunBalanceOptions } from '../balance';
import { currencyExponent } from '../../shared/money';
import type { GuardRails } from '../proxy';
import type { OutboundDeps } from '../outbound/deps';
import { createSecretCache } from '../secrets';
import type { Store } from '../store/sqlite';
import type { TeamLog } from '../store/postgres';
import { sqliteLog } from '../store/sqlite/log';
import { announceRows } from './team-log-events';

export interface DeskOptions {
  /** The data directory (database, and the key file unless the key comes from elsewhere). */
  home: string;
  /**
   * A key file to read the secrets' key from instead of `<home>/secrets.key` (the CLI's --key-file): the
   * one file every process of a team shares. The desk never makes or changes it. It wins over the
   * environment's WAGER_DESK_KEY_FILE and WAGER_DESK_KEY.
   */
  keyFile?: string;
  /** Where WAGER_DESK_KEY_FILE and WAGER_DESK_KEY are read (default: process.env). */
  environment?: Readonly<Record<string, string | undefined>>;
  /** better_sqlite3.node for the running ABI, when it is not the default build (Electron). */
  nativeBinding?: string;
  /**
   * A team's PostgreSQL (a postgres:// URL): the exchange log (with the check reports and the sandbox's
   * books) lives there instead of in the data directory's SQLite file, for everything the desk does;
   * the profiles and saved requests are the team's too (team-profiles.ts); which profile is active, the
   * key and the faults stay in the data directory. Absent: the one saved
   * for the data directory (`wager-desk db use`, saved-database.ts), else its SQLite; null: its SQLite.
   */
  database?: string | null;
  /** Largest request body the proxy keeps (default 1 MiB). */
  maxBodyBytes?: number;
  /** How long the proxy waits for the upstream (default 30 s). */
  upstreamTimeoutMs?: number;
  /** How long outbound requests (replay, send, check, token) wait (default 30 s). */
  outboundTimeoutMs?: number;
  /** The proxy's timeouts and header size limit (default DEFAULT_GUARD_RAILS); a start's own options win. */
  proxyGuardRails?: Partial<GuardRails>;
  /**
   * Refuse to open when sealed secrets exist that the key file cannot open (lost, replaced or foreign),
   * with the one-line reason naming the key file: for shells that run the proxy (the desktop app), which
   * would otherwise start and then verify nothing.
   */
  requireSecretsKey?: boolean;
  /** How long one read of the log (a list, a search) may take on its reading thread (default 5 s). */
  readBudgetMs?: number;
}

/** What every part of the desk shares: the store, the event channel, the secret look-ups, its options. Desk only. */
export interface DeskContext extends OutboundDeps {
  /** The data directory's store, whole: the desk's parts reach its faults, books and key through it. */
  readonly store: Store;
  // The key's source is the store's (store.secretsKey): the options keep neither the environment nor the key.
  readonly options: Required<Omit<DeskOptions, 'nativeBinding' | 'keyFile' | 'environment' | 'database' | 'readBudgetMs'>> & Pick<DeskOptions, 'nativeBinding'>;
  readonly emit: DeskEventListener;
  /** Drops cached secrets after a profile changed. */
  invalidateSecrets(): void;
  /** Moves whenever a profile may have changed: here (invalidateSecrets) or in another process (the data version). */
  profilesVersion(): number;
  /**
   * This desk lives on (a running proxy, a UI subscribed to events): a team's profiles are read on a
   * timer from now on, since the proxy reads them without a call. Nothing on the data directory's own.
   */
  keepProfilesCurrent(): void;
  /** Registers clean-up to run when the desk closes (servers, timers). */
  onClose(fn: () => Promise<void> | void): void;
  /**
   * The balance evidence of a check or edge-case run against a profile (default: the active one); with
   * `run`, the evidence of that run's target only (a profile's probe reads its own operator, never another).
   */
  balanceObserver(profile: string | undefined, run?: RunBalanceOptions): BalanceObserver;
  /** The password of the team database the desk runs on, in its forms (none on SQLite): redacted like a stored secret. */
  readonly databaseSecrets: readonly string[];
}

export function createContext(
  store: Store,
  options: DeskContext['options'],
  emit: DeskEventListener,
  teamLog: TeamLog | null = null,
  keepProfilesCurrent: () => void = () => undefined,
  databaseSecrets: readonly string[] = [],
): DeskContext & { runClosers(): Promise<void> } {
  const closers: Array<() => Promise<void> | void> = [];
  const secrets = createSecretCache(store.profiles, () => store.dataVersion());
  // Both only grow, so their sum moves whenever either does.
  let changedHere = 0;
  return {
    options,
    store,
    // The one place the engine is chosen: every part reads and writes through the log.
    log: teamLog ? teamLog.log(() => store.sandbox.startingBalance(), announceRows(teamLog, emit)) : sqliteLog(store),
    emit,
    profile: (name) => secrets.profile(name),
    signingCandidates: (name) => secrets.signingCandidates(name),
    invalidateSecrets: () => {
      changedHere++;
      secrets.invalidate();
    },
    profilesVersion: () => store.dataVersion() + changedHere,
    keepProfilesCurrent,
    databaseSecrets,
    // Money is observable only through a profile's balance probe or answer balance path; read in the
    // profile's amounts, by its currency's exponent.
    balanceObserver: (name, run) => {
      const profile = secrets.profile(name);
      const deps = { timeoutMs: options.outboundTimeoutMs, exponent: currencyExponent(profile?.currency) };
      return run ? runBalanceObserver(profile, run, deps) : buildBalanceObserver(profile, deps);
    },
    onClose(fn) {
      closers.push(fn);
    },
    async runClosers() {
      for (const fn of closers.reverse()) await fn();
    },
  };
}
