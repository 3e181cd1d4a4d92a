// What a desk whose exchange log is a team's PostgreSQL does so far. The proxy captures into it, the
// list, `show` and `tail` read it, `prune` keeps it short, and the sandbox's books are there; profiles, signing and the proxy's
// faults are the data directory's and work as ever. Everything else reads or writes the exchange log
// through the SQLite engine alone: over PostgreSQL it answers one clear failure instead of quietly
// using the laptop's own file.
import { DESK_METHODS, type DeskMethod } from '../../shared/desk-api';
import type { Result } from '../../shared/model';

export const OVER_POSTGRES: ReadonlySet<DeskMethod> = new Set<DeskMethod>([
  'getStatus',
  'startProxy',
  'stopProxy',
  'listExchanges',
  'getExchange',
  'getTimeline',
  'followExchanges',
  'prune',
  'reverify',
  'deleteExchanges',
  'signBody',
  'verifySignature',
  'listProfiles',
  'saveProfile',
  'duplicateProfile',
  'useProfile',
  'removeProfile',
  'getSandboxState',
  'setSandboxBalance',
  'setSandboxStartingBalance',
  'resetSandbox',
  'exportHar',
  'curlFor',
  'ticketBundle',
  'listFaults',
  'addFault',
  'clearFaults',
]);

/** Replaces each method not built over PostgreSQL yet with one that says so. */
export function limitToTeamLog(desk: Record<DeskMethod, unknown>, label: string): void {
  for (const method of DESK_METHODS) {
    if (OVER_POSTGRES.has(method)) continue;
    desk[method] = (): Promise<Result<never>> =>
      Promise.resolve({
        ok: false,
        error: {
          code: 'bad-input',
          message: `${method} does not work over a team's PostgreSQL log yet (this desk's log is ${label}); run it without --database, on a data directory's own log.`,
        },
      });
  }
}
