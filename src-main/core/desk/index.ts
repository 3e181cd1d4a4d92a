import type { DeskApi, DeskEventListener, DeskEventName, DeskEvents } from '../../shared/desk-api';
import type { ExchangeEvent, ExchangeSummary } from '../../shared/model';
import type { TeamStoreTools } from '../../shared/team-store';
import { chooseKeySource, openStore } from '../store/sqlite';
import { databaseSecrets, databaseUrlProblem } from '../store/database-url';
import { TeamLog } from '../store/postgres';
import { DeskFailure } from '../result';
import { teamLogEvents } from './team-log-events';
import { balancePart } from './balance-part';
import { composePart } from './compose-part';
import { createContext, type DeskOptions } from './context';
import { ecosystemPart } from './ecosystem-part';
import { exchangesPart } from './exchanges-part';
import { followPart } from './follow-part';
import { reverifyPart } from './reverify-part';
import { profilesPart } from './profiles-part';
import { savedPart } from './saved-part';
import { proxyPart } from './proxy-part';
import { redeliverPart } from './redeliver-part';
import { refusalPart } from './refusal-part';
import { registerSeams } from './seams';
import { signingPart } from './signing-part';
import { savedDatabase } from './saved-database';
import { teamStorePart } from './team-store-part';
import { teamProfiles, type TeamProfiles } from './team-profiles';
import { waitBeforeCalls } from './wait-before-calls';
import { tokenPart } from './token-part';

export type { DeskOptions } from './context';

/**
 * The application object: DeskApi for the shells, plus event subscription and shutdown, and the team
 * store's tools (db migrate, db copy) for the CLI: those stay out of DeskApi, so the UI's channels never
 * carry a database URL for the desk to dial.
 */
export interface Desk extends DeskApi, TeamStoreTools {
  /**
   * Subscribes to every event, or only to the events named in `only`; returns the unsubscribe function.
   * Naming them matters on the capture path: rows are summarized for events only while someone wants them.
   */
  on(listener: DeskEventListener, only?: readonly DeskEventName[]): () => void;
  close(): Promise<void>;
}

const MiB = 1024 * 1024;

/** Opens the data directory and assembles the desk from its parts. */
/** How long closing waits for the reading threads to end before it closes the desk's connection anyway. */
const READERS_CLOSE_WAIT_MS = 1_000;

export function createDesk(options: DeskOptions): Desk {
  /** Each listener with the events it wants (null: every event). */
  const listeners = new Map<DeskEventListener, ReadonlySet<DeskEventName> | null>();
  let exchangeListeners = 0;
  const emit: DeskEventListener = <K extends DeskEventName>(name: K, payload: DeskEvents[K]) => {
    for (const [l, wanted] of listeners) {
      if (wanted !== null && !wanted.has(name)) continue;
      try {
        l(name, payload);
      } catch {
        // A broken subscriber (a closed event stream, say) must not break the capture that emitted.
      }
    }
  };
  // One event per row per commit, sent once the commit has ended: listeners then never hold the write
  // lock and never see a row before it is durable. A row written twice in one transaction (inserted and
  // completed in one group commit) is announced once, in its final state, with the counts after the commit.
  // Once anything is pending, later rows queue behind it so that events keep their order.
  const pending = new Map<number, ExchangeSummary>();
  const flush = (): void => {
    const rows = [...pending.values()];
    pending.clear();
    if (rows.length === 0) return;
    // The counts are the store's known ones (no SQL on the thread that answers callbacks): read once per
    // commit, and only by a listener that wants them (the UI's status bar does; a headless `serve` has none).
    let counts: ExchangeEvent['counts'] | null = null;
    const countsNow = (): ExchangeEvent['counts'] => (counts ??= store.knownCounts());
    for (const exchange of rows)
      emit('exchange', {
        exchange,
        get counts() {
          return countsNow();
        },
      });
  };
  const keySource = chooseKeySource({ home: options.home, keyFile: options.keyFile, env: options.environment ?? process.env });
  const database = options.database === undefined ? savedDatabase(options.home) : (options.database ?? undefined);
  if (database !== undefined) {
    const problem = databaseUrlProblem(database);
    if (problem) throw new DeskFailure('bad-input', `The database URL: ${problem}`);
  }
  const store = openStore(options.home, {
    keySource,
    // On a team's database the profiles are the team's: every proxy routes, judges and signs with the same.
    teamProfiles: database !== undefined,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.readBudgetMs !== undefined ? { readBudgetMs: options.readBudgetMs } : {}),
    onExchange: (summary) => {
      const first = pending.size === 0;
      pending.set(summary.id, summary);
      if (first && !store.inTransaction()) return flush();
      if (first) queueMicrotask(flush);
    },
    // A row announced to nobody is dropped at flush anyway: the proxy's writes then skip building it.
    listening: () => exchangeListeners > 0,
  });
  // A team's sealed secrets are not read yet: its key is checked when the proxy starts, as everything
  // else that needs a secret checks it.
  if (options.requireSecretsKey && database === undefined) {
    try {
      store.profiles.checkKey();
    } catch (err) {
      store.close();
      throw err;
    }
  }
  const teamLog = database !== undefined ? new TeamLog(database, options.readBudgetMs !== undefined ? { readBudgetMs: options.readBudgetMs } : {}) : null;
  // Made once the context is (its hooks use the context); the context reaches it only later, at run time.
  let sharedProfiles: TeamProfiles | null = null;
  const ctx = createContext(
    store,
    {
      home: options.home,
      maxBodyBytes: options.maxBodyBytes ?? MiB,
      upstreamTimeoutMs: options.upstreamTimeoutMs ?? 30_000,
      outboundTimeoutMs: options.outboundTimeoutMs ?? 30_000,
      proxyGuardRails: options.proxyGuardRails ?? {},
      requireSecretsKey: options.requireSecretsKey ?? false,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    },
    emit,
    teamLog,
    () => sharedProfiles?.listen(),
    database !== undefined ? databaseSecrets(database) : [],
  );
  // Over a team's PostgreSQL, rows come from every proxy on it: heard while anyone listens for rows.
  const teamNews = teamLog ? teamLogEvents(teamLog, emit) : { start: () => undefined, stop: () => Promise.resolve() };
  sharedProfiles =
    teamLog && store.profileCopy
      ? teamProfiles(teamLog, store.profileCopy, store.profiles, store.secretsKey, {
          changed: () => ctx.invalidateSecrets(),
          read: (names) => emit('profiles', { names }),
        })
      : null;
  let closed = false;
  const desk: Desk = {
    ...exchangesPart(ctx),
    ...profilesPart(ctx, sharedProfiles),
    ...savedPart(ctx),
    ...balancePart(ctx),
    ...proxyPart(ctx),
    ...composePart(ctx),
    ...refusalPart(ctx),
    ...tokenPart(ctx),
    ...ecosystemPart(ctx),
    ...signingPart(ctx),
    ...redeliverPart(ctx),
    ...followPart(ctx),
    ...reverifyPart(ctx),
    ...teamStorePart(ctx),
    on(listener, only) {
      if (listeners.has(listener)) return () => undefined;
      const wanted = only ? new Set(only) : null;
      const counted = wanted === null || wanted.has('exchange');
      listeners.set(listener, wanted);
      ctx.keepProfilesCurrent();
      if (counted && exchangeListeners++ === 0) teamNews.start();
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        listeners.delete(listener);
        if (counted && --exchangeListeners === 0) teamNews.stop();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      exchangeListeners = 0;
      await teamNews.stop();
      await sharedProfiles?.stop();
      await ctx.runClosers();
      await teamLog?.close();
      // The reading threads' connections end before the desk's own, which then checkpoints the log into
      // the file; a thread held in a long statement (it ends only when the statement does) is not waited
      // for past a moment, and leaves the log beside the file, as a killed process would.
      await Promise.race([store.closeReaders(), new Promise((resolve) => setTimeout(resolve, READERS_CLOSE_WAIT_MS).unref())]);
      store.close();
    },
  };
  // Nothing the desk does may run on a copy of the team's profiles older than a moment.
  const team = sharedProfiles;
  if (team) waitBeforeCalls(desk, () => team.current());
  registerSeams(desk, ctx);
  return desk;
}
