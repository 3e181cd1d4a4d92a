// Reading a conformance report in a test: the ids of the checks with one outcome, and one check by id
// (a missing one fails the test with its id, not with a TypeError further on).
import type { CheckReport, CheckResult } from '../../src-main/shared/model';

/** The ids of the report's checks whose outcome is `outcome`. */
export const idsWithOutcome = (r: CheckReport, outcome: string): string[] => r.checks.filter((c) => c.outcome === outcome).map((c) => c.id);

/** The report's check `id`; throws when the report has none. */
export function checkOf(r: CheckReport, id: string): CheckResult {
  const found = r.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id} in the report`);
  return found;
}
