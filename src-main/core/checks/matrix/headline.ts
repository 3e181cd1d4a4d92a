// The headline of a run: its worst confirmed finding in one sentence. A wrong URL first (nothing else
// means anything then), then the failed check of lowest severity (a measured loss before a mere
// answer), then what is blocked, then what is inconclusive, then what money could not be observed,
// then the desk's advice not met. A refusal whose control was refused too is never a headline's cause.
import type { CheckResult } from '../../../shared/model';
import { moneyIdOf, type MatrixCheck } from './types';

export function headlineOf(checks: readonly MatrixCheck[], results: readonly CheckResult[], notServedLine: string | null): string | undefined {
  if (notServedLine) return notServedLine;
  const byId = new Map(results.map((r) => [r.id, r]));
  const failed = checks
    .map((c) => ({ c, answer: byId.get(c.id), money: byId.get(moneyIdOf(c.id)) }))
    .filter(({ answer, money }) => answer?.outcome === 'fail' || money?.outcome === 'fail')
    // A loss the balance shows ranks half a step above the same check's answer alone.
    .map((f) => ({ ...f, rank: f.c.severity - (f.money?.outcome === 'fail' ? 0.5 : 0) }))
    .sort((a, b) => a.rank - b.rank);
  const failures = results.filter((r) => r.outcome === 'fail').length;
  const worst = failed[0];
  if (worst) {
    const more = failures > 1 ? ` (${failures - 1} more failed)` : '';
    if (worst.answer?.outcome === 'fail' && worst.money?.outcome === 'fail') {
      return `${worst.c.finding}; measured: ${worst.c.money?.finding ?? 'the balance moved'}, ${worst.money.observed}${more}`;
    }
    if (worst.money?.outcome === 'fail') return `${worst.c.money?.finding ?? 'the balance moved'}: ${worst.money.observed}${more}`;
    return `${worst.c.finding}${more}`;
  }
  const blocked = results.filter((r) => r.outcome === 'blocked');
  if (blocked.length > 0)
    return `${blocked.length} checks are blocked, so they say nothing either way: ${blocked[0]!.reason ?? 'a step they depend on failed'}`;
  const inconclusive = results.filter((r) => r.outcome === 'inconclusive');
  if (inconclusive.length > 0) {
    return `No check failed, but ${inconclusive.length} ${inconclusive.length === 1 ? 'refusal is' : 'refusals are'} inconclusive (a plain control was refused too): ${inconclusive[0]!.reason ?? inconclusive[0]!.id}`;
  }
  const unobserved = results.filter((r) => r.outcome === 'not-observable');
  if (unobserved.length > 0) {
    return `No check failed, but ${unobserved.length} money rules are not observable (never counted as passed): ${unobserved[0]!.howToObserve ?? 'give the run a balance probe'}`;
  }
  const warnings = results.filter((r) => r.outcome === 'warning');
  if (warnings.length > 0) {
    return `No check failed; ${warnings.length} ${warnings.length === 1 ? 'warning' : 'warnings'} on the desk's advice, not the spec's rules: ${warnings[0]!.title}`;
  }
  return undefined;
}
