// Whose balance a run may read. A profile's probe (and the credentials in its headers) belongs to that
// profile's operator: a run sent elsewhere (`check --to URL`, the UI's "Another URL") never reads it,
// since another server's balance would judge the target's money with numbers that are not its own.
// Such a run reads money from a balance URL given for it (sent without the profile's headers), or from
// the target's own answers, or not at all.
import type { ProfileSecrets } from '../store/contract/profiles';
import { buildBalanceObserver, type BalanceObserverDeps } from './build-observer';
import type { BalanceObserver } from './observer';
import { checkBalancePath, checkProbeUrl } from '../balance-probe/probe-config';

export interface RunBalanceOptions {
  /** The target of the run; absent: the profile's operator. */
  to?: string;
  /** A balance endpoint of the target for this run only. */
  balanceUrl?: string;
  /** Where the balance is in its answer; default: the profile's probe path, else $.balance. */
  balancePath?: string;
}

const DEFAULT_PATH = '$.balance';

function sameOperator(to: string, operatorUrl: string | null): boolean {
  if (operatorUrl === null) return false;
  const norm = (u: string) => u.trim().replace(/\/+$/, '');
  try {
    return new URL(norm(to)).href === new URL(norm(operatorUrl)).href;
  } catch {
    return false;
  }
}

/** True when the run's target is not the profile's own operator. */
export function runsElsewhere(profile: ProfileSecrets | null, run: RunBalanceOptions): boolean {
  return run.to !== undefined && !sameOperator(run.to, profile?.operatorUrl ?? null);
}

/** The balance observer of one run: the profile's own when the run goes to its operator, else only the target's. */
export function runBalanceObserver(profile: ProfileSecrets | null, run: RunBalanceOptions, deps: BalanceObserverDeps): BalanceObserver {
  const given = checkProbeUrl(run.balanceUrl ?? null);
  if (!runsElsewhere(profile, run) && given === null) return buildBalanceObserver(profile, deps);
  const probe = profile?.balance;
  const path = checkBalancePath('The balance path', run.balancePath ?? null) ?? probe?.path ?? DEFAULT_PATH;
  const base: ProfileSecrets = profile ?? {
    name: 'this run',
    operatorUrl: null,
    baseUrl: null,
    operatorId: null,
    upstream: null,
    production: false,
    allowSelfSigned: false,
    callbackPrefix: '/platform',
    amounts: 'integer',
    currency: 'USD',
    secret: null,
    previousSecret: null,
    apiKey: null,
  };
  const observer = buildBalanceObserver(
    {
      ...base,
      // The target's own answers still carry its balance; the profile's credentials go nowhere else.
      operatorUrl: run.to ?? base.operatorUrl,
      balance: { url: given, path: given === null ? null : path, units: probe?.units ?? null, headers: [], answerPath: probe?.answerPath ?? null },
    },
    deps,
  );
  if (observer.available) return observer;
  return { ...observer, howToObserve: "give the run the target's balance endpoint: check --balance-url URL --balance-path PATH" };
}
