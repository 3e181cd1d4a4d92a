// The edge-case catalog: every check the generator makes, as the API lists it (what it tests, what is
// expected, the rule), so that the catalog and the conformance check know the same things.
import type { EdgeCase } from '../../shared/model';
import { EXPECTATION_TEXT } from './expectation';
import { MATRIX } from './matrix';

/** The catalog as the API shows it: without the builders. */
export function listEdgeCases(): EdgeCase[] {
  return MATRIX.map((c) => ({
    id: c.id,
    title: c.title,
    tests: c.tests,
    expected:
      c.expectation === null
        ? 'Not stated by the spec, and the desk cannot tell the right answer from the status: read it.'
        : `${EXPECTATION_TEXT[c.expectation]}${c.money ? `; money: ${c.money.title.charAt(0).toLowerCase()}${c.money.title.slice(1)}` : ''} (section ${c.rule.section}).`,
    checkable: c.expectation !== null,
    rule: c.rule,
  }));
}
