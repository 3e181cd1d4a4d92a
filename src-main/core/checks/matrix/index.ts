// The one generator of the conformance check and the edge-case catalog: the spec's rules crossed with
// the endpoints, the signature faults, the orderings, the duplicates and the body shapes.
import { duplicateChecks } from './duplicates';
import { faultChecks } from './faults';
import { lifecycleChecks } from './lifecycle';
import { orderingChecks } from './ordering';
import { robustnessChecks } from './robustness';
import { shapeChecks } from './shapes';
import { ENDPOINTS, type MatrixCheck } from './types';

export { moneyIdOf, type BuiltCheck, type Endpoint, type MatrixCheck, type MatrixScope, type MoneyRule } from './types';

function generate(): readonly MatrixCheck[] {
  const checks = [
    ...lifecycleChecks(ENDPOINTS),
    ...faultChecks(ENDPOINTS),
    ...duplicateChecks(ENDPOINTS),
    ...orderingChecks(),
    ...shapeChecks(),
    ...robustnessChecks(),
  ];
  const seen = new Set<string>();
  for (const c of checks) {
    if (seen.has(c.id)) throw new Error(`two generated checks share the id ${c.id}`);
    seen.add(c.id);
  }
  // The checks that may ruin the user's balance go last, in their own order.
  return [...checks.filter((c) => !c.last), ...checks.filter((c) => c.last)];
}

/** Every generated check, in the order a run sends them: the valid cells first, since the others depend on them. */
export const MATRIX: readonly MatrixCheck[] = generate();

/** The checks `check` runs: those with an expectation (the others are for a person to read). */
export const JUDGED_CHECKS: readonly MatrixCheck[] = MATRIX.filter((c) => c.expectation !== null);

export function findMatrixCheck(id: string): MatrixCheck | undefined {
  return MATRIX.find((c) => c.id === id);
}

/** The valid pay every run sends first: a 404 there says the target does not serve the callbacks at all. */
export const validIdOfPay = 'pay.valid';

export const CONFORMANCE_CHECK_IDS: readonly string[] = JUDGED_CHECKS.map((c) => c.id);
