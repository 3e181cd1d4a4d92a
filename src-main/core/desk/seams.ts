// Named seams of a desk for tests and benchmarks, which drive one feature directly or fill the log fast.
// Shells (the CLI, the web mode, Electron) use DeskApi only; nothing under src-main imports this file.
import type { BalanceObserver } from '../balance/observer';
import type { SecretLookups } from '../secrets';
import type { ExchangeLog } from '../store/contract/exchange-log';
import type { DeskContext } from './context';

const contexts = new WeakMap<object, DeskContext>();

export function registerSeams(desk: object, ctx: DeskContext): void {
  contexts.set(desk, ctx);
}

function contextOf(desk: object): DeskContext {
  const ctx = contexts.get(desk);
  if (!ctx) throw new Error('Not a desk made by createDesk.');
  return ctx;
}

/**
 * The desk's SQLite store: its file, exchanges, profiles, settings and faults. For tests about SQLite
 * itself; a test about the log reads it through logOf, as the desk does.
 */
export function storeOf(desk: object): DeskContext['store'] {
  return contextOf(desk).store;
}

/** The desk's exchange log as the desk itself reads and writes it: the data directory's SQLite or a team's PostgreSQL. */
export function logOf(desk: object): ExchangeLog {
  return contextOf(desk).log;
}

/** The desk's secret look-ups (what the proxy and the outbound features verify and sign with). */
export function secretsOf(desk: object): SecretLookups {
  const ctx = contextOf(desk);
  return { profile: (name) => ctx.profile(name), signingCandidates: (name) => ctx.signingCandidates(name) };
}

/** What a feature that sends and records takes, as the desk gives it (to drive a feature without DeskApi). */
export function featureDepsOf(desk: object): DeskContext {
  return contextOf(desk);
}

/**
 * Gives the desk's checks and edge cases this balance observer (for every profile) instead of the one
 * its profiles name: for tests whose stand-in operator shows its balances another way.
 */
export function useBalanceObserver(desk: object, observer: BalanceObserver): void {
  const ctx = contextOf(desk) as { balanceObserver: DeskContext['balanceObserver'] };
  ctx.balanceObserver = () => observer;
}
